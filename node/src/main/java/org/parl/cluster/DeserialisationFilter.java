package org.parl.cluster;

import com.hazelcast.config.ClassFilter;
import com.hazelcast.config.JavaSerializationFilterConfig;

/**
 * What Hazelcast may read with Java deserialisation from another member: nothing but the
 * exceptions that Hazelcast's own error responses carry (a partition migrating, a member gone).
 *
 * <p>Everything parl and Vert.x keep in Hazelcast travels in other formats: parl's maps hold
 * strings, Vert.x's subscriptions and node records are Hazelcast {@code DataSerializable}. The list
 * was found by running the cluster tests with a filter that logged every class Java deserialisation
 * met; Hazelcast's default list ({@code java}, {@code com.hazelcast.}, arrays) is off, so the usual
 * {@code java.*} gadget chains are refused.
 */
public final class DeserialisationFilter {

  /** Hazelcast's exceptions (packages, not the whole {@code com.hazelcast.} prefix: the jar shades libraries). */
  static final String[] PACKAGES = {"com.hazelcast.core", "com.hazelcast.spi.exception"};

  /**
   * What a serialised Hazelcast exception consists of, and Hazelcast's exceptions outside those
   * packages: a topology change, answered to a member joining while another one joins; a partition
   * table that moved on, answered to an operation sent while a member's death moves partitions (a
   * response this filter refused would leave its operation waiting for Hazelcast's call timeout).
   */
  static final String[] CLASSES = {
      "com.hazelcast.internal.cluster.impl.ClusterTopologyChangedException",
      "com.hazelcast.internal.partition.PartitionStateVersionMismatchException",
      "java.lang.Throwable", "java.lang.Exception", "java.lang.RuntimeException", "java.lang.IllegalStateException",
      "java.io.IOException", "java.util.concurrent.ExecutionException",
      "java.lang.StackTraceElement", "[Ljava.lang.StackTraceElement;", "java.util.Collections$EmptyList"};

  private DeserialisationFilter() {}

  /** A fresh filter configuration (Hazelcast's {@code Config} objects are mutable, so never shared). */
  public static JavaSerializationFilterConfig config() {
    return new JavaSerializationFilterConfig()
        .setDefaultsDisabled(true)
        .setWhitelist(new ClassFilter().addPackages(PACKAGES).addClasses(CLASSES));
  }
}
