package org.parl;

/** The actor's job process, its worker or the master died; the message names the cause (a memory limit, a signal, ...). */
public class ActorLostException extends ParlException {

  public ActorLostException(String message) {
    super(message);
  }

  public ActorLostException(String message, Throwable cause) {
    super(message, cause);
  }
}
