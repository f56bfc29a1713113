package org.parl.internal.wire;

/**
 * The one error vocabulary of parl: every failure a node, the gateway or a job reports carries
 * one of these kinds, and the client turns each into the matching exception of the public API.
 * On the event bus a kind travels as its {@link #code()}; in JSON (gateway answers, a job's ERROR
 * frame) as its {@link #name()}.
 */
public enum ErrorKind {
  /** A malformed or impossible request: {@code InvalidRequestException}. */
  INVALID(400),
  /** The peer did not prove that it holds the cluster token: {@code AuthenticationException}. */
  UNAUTHENTICATED(401),
  /** Unknown job, worker or client: {@code InvalidRequestException}. */
  NOT_FOUND(404),
  /** GPU request on a CPU cluster or the reverse: {@code ClusterMismatchException}. */
  MISMATCH(409),
  /** The job, its worker or the master is gone: {@code ActorLostException}. */
  LOST(410),
  /** The actor's own code threw: {@code RemoteException}. */
  REMOTE(420),
  /** A value could not be encoded or decoded: {@code RemoteSerializationException}. */
  SERIALIZATION(421),
  /** The actor has no such field: {@code RemoteAttributeException}. */
  ATTRIBUTE(422),
  /** Nothing internal should reach a user, but if it does it says so: {@code ParlException}. */
  INTERNAL(500),
  /** No resources within the timeout: {@code ResourceException}. */
  RESOURCE(503);

  private final int code;

  ErrorKind(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The kind of a failure code, {@link #INTERNAL} when it is not one of ours. */
  public static ErrorKind ofCode(int code) {
    for (ErrorKind k : values()) {
      if (k.code == code) {
        return k;
      }
    }
    return INTERNAL;
  }

  /** The kind named {@code name}, {@link #INTERNAL} for anything else (a peer may send garbage). */
  public static ErrorKind ofName(String name) {
    for (ErrorKind k : values()) {
      if (k.name().equals(name)) {
        return k;
      }
    }
    return INTERNAL;
  }
}
