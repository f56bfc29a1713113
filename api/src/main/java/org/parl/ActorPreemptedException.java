package org.parl;

/**
 * The actor's job was stopped to make room for a waiting create of higher priority that asked to preempt
 * ({@link ActorBuilder#preempt}) on a cluster that allows it; its process tree was gone before what it held
 * was granted again. The message names the create it made room for.
 */
public class ActorPreemptedException extends ActorLostException {

  public ActorPreemptedException(String message) {
    super(message);
  }
}
