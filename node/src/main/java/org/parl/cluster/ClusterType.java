package org.parl.cluster;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import org.parl.wire.BadMessageException;

/** Whether a cluster lends CPUs (the default) or GPUs; fixed when the master starts. In JSON, its label. */
public enum ClusterType {
  CPU,
  GPU;

  @JsonValue
  public String label() {
    return name().toLowerCase();
  }

  @JsonCreator
  public static ClusterType parse(String s) {
    for (ClusterType t : values()) {
      if (t.label().equals(s)) {
        return t;
      }
    }
    throw new BadMessageException("clusterType must be \"cpu\" or \"gpu\", not " + s);
  }
}
