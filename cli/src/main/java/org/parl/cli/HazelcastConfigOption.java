package org.parl.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --hazelcast-config}: Hazelcast settings instead of {@code config/parl-hazelcast.xml}. */
public final class HazelcastConfigOption {

  @Option(names = "--hazelcast-config", paramLabel = "FILE",
      description = "Hazelcast settings to use instead of config/parl-hazelcast.xml (or $PARL_HAZELCAST_CONFIG).")
  Path file;
}
