package org.parl.control;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import org.parl.internal.wire.BadMessageException;

/**
 * Whether a cluster lends CPUs (the default), GPUs (PARL's two kinds), or both side by side (a mixed
 * cluster: workers lend CPUs and, where they have them, GPUs); fixed when the master starts. In JSON,
 * its label.
 */
public enum ClusterType {
  CPU,
  GPU,
  MIXED;

  /** Whether workers of this cluster lend CPUs. */
  public boolean lendsCpus() {
    return this != GPU;
  }

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
    throw new BadMessageException("clusterType must be \"cpu\", \"gpu\" or \"mixed\", not " + s);
  }
}
