package org.parl.cluster;

/** Whether a cluster lends CPUs (the default) or GPUs; fixed when the master starts. */
public enum ClusterType {
  CPU,
  GPU;

  public String label() {
    return name().toLowerCase();
  }

  public static ClusterType parse(String s) {
    for (ClusterType t : values()) {
      if (t.label().equals(s)) {
        return t;
      }
    }
    throw new BadMessageException("clusterType must be \"cpu\" or \"gpu\", not " + s);
  }
}
