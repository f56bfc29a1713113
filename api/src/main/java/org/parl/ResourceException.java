package org.parl;

/** No worker had the resources an actor asked for within the resource-wait timeout. */
public class ResourceException extends ParlException {

  public ResourceException(String message) {
    super(message);
  }

  public ResourceException(String message, Throwable cause) {
    super(message, cause);
  }
}
