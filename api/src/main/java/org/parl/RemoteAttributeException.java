package org.parl;

/** A remote field read or write named a field the actor does not have, or one that cannot be written. */
public class RemoteAttributeException extends ParlException {

  public RemoteAttributeException(String message) {
    super(message);
  }

  public RemoteAttributeException(String message, Throwable cause) {
    super(message, cause);
  }
}
