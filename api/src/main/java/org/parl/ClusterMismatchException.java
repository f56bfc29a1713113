package org.parl;

/** A GPU actor was asked of a CPU cluster, or a CPU-only actor of a GPU cluster. */
public class ClusterMismatchException extends ParlException {

  public ClusterMismatchException(String message) {
    super(message);
  }

  public ClusterMismatchException(String message, Throwable cause) {
    super(message, cause);
  }
}
