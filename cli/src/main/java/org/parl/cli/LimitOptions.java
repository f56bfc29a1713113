package org.parl.cli;

import org.parl.limits.LimitSettings;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The caps of docs/contract.md §8 that operators tune, as flags of {@code parl master} and {@code parl worker}:
 * each replaces its key of {@link LimitSettings#FILE} for this process ({@link LimitSettings#override}),
 * so every part of the node that reads the limits sees it. Checked as they are parsed: a value out of
 * its range, or a master's cap given to a worker, is a usage error that says which.
 */
public final class LimitOptions {

  private static final long MIB = 1L << 20;

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(names = "--max-connections-per-address", paramLabel = "N",
      description = "Master: gateway connections open at once from one address (default: gateway.maxConnectionsPerAddress "
          + "in " + LimitSettings.FILE + ", else 64).")
  void maxConnectionsPerAddress(int n) {
    masterOnly("--max-connections-per-address");
    set("--max-connections-per-address", "gateway.maxConnectionsPerAddress", n, 1, 100_000, 1);
  }

  @Option(names = "--max-connections", paramLabel = "N",
      description = "Master: gateway connections open at once in total (default: gateway.maxConnections, else 1024).")
  void maxConnections(int n) {
    masterOnly("--max-connections");
    set("--max-connections", "gateway.maxConnections", n, 1, 1_000_000, 1);
  }

  @Option(names = "--max-unauthenticated", paramLabel = "N",
      description = "Master: gateway connections still authenticating, at once (default: gateway.maxUnauthenticated, else 64).")
  void maxUnauthenticated(int n) {
    masterOnly("--max-unauthenticated");
    set("--max-unauthenticated", "gateway.maxUnauthenticated", n, 1, 100_000, 1);
  }

  @Option(names = "--max-waiting-per-client", paramLabel = "N",
      description = "Master: creates of one client that may wait for resources at once (default: jobs.maxWaitingPerClient, "
          + "else 1000).")
  void maxWaitingPerClient(int n) {
    masterOnly("--max-waiting-per-client");
    set("--max-waiting-per-client", "jobs.maxWaitingPerClient", n, 1, 1_000_000, 1);
  }

  @Option(names = "--job-log-max-mb", paramLabel = "MIB",
      description = "Size of a job's log past which it is rotated (default: jobs.logMaxBytes, else 64 MiB).")
  void jobLogMaxMb(int n) {
    set("--job-log-max-mb", "jobs.logMaxBytes", n, 1, 1 << 20, MIB);
  }

  @Option(names = "--job-log-keep-hours", paramLabel = "HOURS",
      description = "How long the log of a job that ended is kept (default: jobs.logKeepHours, else 24).")
  void jobLogKeepHours(int n) {
    set("--job-log-keep-hours", "jobs.logKeepHours", n, 1, 24 * 3650, 1);
  }

  @Option(names = "--job-log-keep-ended", paramLabel = "N",
      description = "How many logs of ended jobs are kept at most (default: jobs.logKeepEnded, else 1000).")
  void jobLogKeepEnded(int n) {
    set("--job-log-keep-ended", "jobs.logKeepEnded", n, 1, 1_000_000, 1);
  }

  @Option(names = "--code-cache-max-mb", paramLabel = "MIB",
      description = "Size of the host's shipped-code cache past which the least recently used code is evicted "
          + "(default: jobs.codeCacheMaxBytes, else 2048 MiB).")
  void codeCacheMaxMb(int n) {
    set("--code-cache-max-mb", "jobs.codeCacheMaxBytes", n, 1, 1 << 24, MIB);
  }

  /** The gateway and the JobCenter run in the master: a worker has no use for their caps. */
  private void masterOnly(String flag) {
    if (!"master".equals(spec.name())) {
      throw new ParameterException(spec.commandLine(), flag + " is a cap of the master (its gateway or JobCenter): give it "
          + "to 'parl master', not 'parl " + spec.name() + "'");
    }
  }

  private void set(String flag, String key, int n, int min, int max, long unit) {
    if (n < min || n > max) {
      throw new ParameterException(spec.commandLine(), flag + " must be between " + min + " and " + max + ", not " + n);
    }
    LimitSettings.override(key, n * unit);
  }
}
