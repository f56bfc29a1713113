package org.parl;

/** Base of every exception parl raises; all are unchecked, and each message says what to do next. */
public class ParlException extends RuntimeException {

  public ParlException(String message) {
    super(message);
  }

  public ParlException(String message, Throwable cause) {
    super(message, cause);
  }
}
