package org.parl.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.spi.properties.ClusterProperty;
import com.hazelcast.spi.properties.HazelcastProperties;

/**
 * How soon this node's Hazelcast failure detector declares a silent member gone, as its configuration
 * says: the bounds a worker's fence and the JobCenter's lease on a lost worker are computed from
 * (docs/contract.md §7).
 *
 * <p>Each member sends a heartbeat every {@code heartbeatMs} and, on the same beat, declares gone a
 * member it has not heard for {@code maxSilenceMs}. After a cut, the last heartbeat either side heard
 * was sent at most one beat before it, so a worker declares its masters gone at most
 * {@code maxSilence + beat} after the cut, and a master declares the worker gone at least
 * {@code maxSilence - beat} after it. A worker that then stops its jobs at once has them gone by
 * {@link #fenceAfterCutMs}; the master that dropped it waits {@link #leaseAfterDropMs} before it
 * releases what they held.
 *
 * @param maxSilenceMs how long a member may be silent before it is declared gone
 * @param heartbeatMs how often members send heartbeats (and check for silent ones)
 */
public record LossDetection(long maxSilenceMs, long heartbeatMs) {

  /**
   * Allowance for the two hosts' clocks and timers: monotonic clocks that NTP slews differ in rate by
   * at most 500 ppm (5 ms over the 10 s a lease lasts at most by default); the rest covers timers that
   * fire late on a loaded host.
   */
  public static final long DRIFT_MARGIN_MS = 500;

  public LossDetection {
    if (maxSilenceMs < 1 || heartbeatMs < 1) {
      throw new IllegalArgumentException("the failure detector's times must be positive, not " + maxSilenceMs
          + " ms of silence and a heartbeat every " + heartbeatMs + " ms");
    }
  }

  /** The detector of this Hazelcast member, from the properties it runs with. */
  public static LossDetection of(HazelcastInstance hazelcast) {
    return of(hazelcast.getConfig());
  }

  /** The detector a member started with {@code config} runs. */
  public static LossDetection of(Config config) {
    HazelcastProperties properties = new HazelcastProperties(config);
    return new LossDetection(properties.getMillis(ClusterProperty.MAX_NO_HEARTBEAT_SECONDS),
        properties.getMillis(ClusterProperty.HEARTBEAT_INTERVAL_SECONDS));
  }

  /**
   * The longest time from a cut of this node's network to its jobs being gone, when it stops them as
   * soon as it declares its masters gone.
   *
   * @param stopMs how long stopping its jobs takes at most, from the loss to their processes reaped
   */
  public long fenceAfterCutMs(long stopMs) {
    // the last heartbeat heard was sent at the cut at the latest; it is declared silent on the next beat
    // after maxSilence, and the other side's last heartbeat may have left one beat before the cut
    return maxSilenceMs + 2 * heartbeatMs + stopMs;
  }

  /**
   * How long after this node declared a worker gone that worker's jobs are surely gone, given the
   * {@link #fenceAfterCutMs} the worker stated: the lease this node honours before it releases them.
   */
  public long leaseAfterDropMs(long workerFenceAfterCutMs) {
    return Math.max(0, workerFenceAfterCutMs - maxSilenceMs) + DRIFT_MARGIN_MS;
  }
}
