package org.parl;

/** An argument, result or field value could not be serialised or deserialised. */
public class RemoteSerializationException extends ParlException {

  public RemoteSerializationException(String message) {
    super(message);
  }

  public RemoteSerializationException(String message, Throwable cause) {
    super(message, cause);
  }
}
