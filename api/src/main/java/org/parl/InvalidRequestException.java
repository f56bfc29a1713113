package org.parl;

/** A request that cannot be served as asked, such as more GPUs than the per-actor maximum, or a call on a closed actor. */
public class InvalidRequestException extends ParlException {

  public InvalidRequestException(String message) {
    super(message);
  }

  public InvalidRequestException(String message, Throwable cause) {
    super(message, cause);
  }
}
