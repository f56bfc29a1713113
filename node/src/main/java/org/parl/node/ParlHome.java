package org.parl.node;

import java.nio.file.Path;

/**
 * Where parl keeps per-user state on a host: {@code $PARL_HOME}, by default {@code ~/.parl}.
 * Tests point {@code PARL_HOME} at a temporary folder so that runs never see each other.
 */
public final class ParlHome {

  public static final String ENV = "PARL_HOME";

  private ParlHome() {}

  public static Path root() {
    String env = System.getenv(ENV);
    return env != null && !env.isBlank() ? Path.of(env) : Path.of(System.getProperty("user.home"), ".parl");
  }

  /** One file per cluster whose master runs on this host, read by {@code parl status}. */
  public static Path clusters() {
    return root().resolve("clusters");
  }

  /** Pid files of nodes started with {@code --detach}, read by {@code parl stop}. */
  public static Path run() {
    return root().resolve("run");
  }

  /** Logs of detached nodes. */
  public static Path logs() {
    return root().resolve("logs");
  }

  /** One folder per worker: job logs and working directories. */
  public static Path workers() {
    return root().resolve("workers");
  }

  /** Shipped code by content hash, shared by the workers of this host. */
  public static Path codeCache() {
    return root().resolve("code");
  }
}
