package org.parl.limits;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The caps of docs/contract.md §8 that a lab may want to change, from {@code config/parl-limits.properties}:
 * {@code $PARL_LIMITS_CONFIG}, else the installation's {@code config/parl-limits.properties}, else
 * the copy inside the jar; a value given on the command line ({@link #override}) replaces the file's.
 * A missing key keeps its default; a bad value is an {@link IllegalArgumentException} with one sentence.
 *
 * @param maxConnectionsPerAddress gateway connections open at once from one peer address
 * @param maxConnections gateway connections open at once in total
 * @param maxUnauthenticated gateway connections that have not yet authenticated, at once
 * @param maxWaitingPerClient creates of one client waiting in the queue for resources
 * @param logMaxBytes size of a job's log past which a worker rotates it
 * @param logKeepHours how long a worker keeps the log of a job that ended
 * @param logKeepEnded how many logs of ended jobs a worker keeps at most
 * @param codeCacheMaxBytes size of a host's shipped-code cache past which the least recently used code is evicted
 */
public record LimitSettings(int maxConnectionsPerAddress, int maxConnections, int maxUnauthenticated,
    int maxWaitingPerClient, long logMaxBytes, int logKeepHours, int logKeepEnded, long codeCacheMaxBytes) {

  public static final String CONFIG_ENV = "PARL_LIMITS_CONFIG";
  /** The settings file's name, also for messages that tell how to raise a cap. */
  public static final String FILE = "config/parl-limits.properties";
  private static final String RESOURCE = "parl-limits.properties";
  /** The keys of the file, which {@link #override} accepts. */
  public static final Set<String> KEYS = Set.of("gateway.maxConnectionsPerAddress", "gateway.maxConnections",
      "gateway.maxUnauthenticated", "jobs.maxWaitingPerClient", "jobs.logMaxBytes", "jobs.logKeepHours",
      "jobs.logKeepEnded", "jobs.codeCacheMaxBytes");
  /** Values from this process's command line, by key; they win over the file. */
  private static final Map<String, Long> OVERRIDES = new ConcurrentHashMap<>();

  /** The defaults, which a lab never hits by accident. */
  public static final LimitSettings DEFAULTS = new LimitSettings(64, 1024, 64, 1000, 64L << 20, 24, 1000, 2L << 30);

  public LimitSettings {
    positive("gateway.maxConnectionsPerAddress", maxConnectionsPerAddress);
    positive("gateway.maxConnections", maxConnections);
    positive("gateway.maxUnauthenticated", maxUnauthenticated);
    positive("jobs.maxWaitingPerClient", maxWaitingPerClient);
    positive("jobs.logMaxBytes", logMaxBytes);
    positive("jobs.logKeepHours", logKeepHours);
    positive("jobs.logKeepEnded", logKeepEnded);
    positive("jobs.codeCacheMaxBytes", codeCacheMaxBytes);
  }

  /** The caps a test or an embedding program sets, with the defaults for disk use. */
  public LimitSettings(int maxConnectionsPerAddress, int maxConnections, int maxUnauthenticated, int maxWaitingPerClient) {
    this(maxConnectionsPerAddress, maxConnections, maxUnauthenticated, maxWaitingPerClient, 64L << 20, 24, 1000, 2L << 30);
  }

  /**
   * Makes {@code key} read {@code value} in every later {@link #load()} of this process, whatever the
   * file says: how {@code parl master} and {@code parl worker} apply their flags.
   *
   * @throws IllegalArgumentException when {@code key} is not one of {@link #KEYS}
   */
  public static void override(String key, long value) {
    if (!KEYS.contains(key)) {
      throw new IllegalArgumentException("no such limit: " + key + "; the limits are " + KEYS);
    }
    OVERRIDES.put(key, value);
  }

  /** Forgets the values of {@link #override}, for tests. */
  static void clearOverrides() {
    OVERRIDES.clear();
  }

  /** The settings in effect on this installation: the file's, with the command line's overrides. */
  public static LimitSettings load() {
    Path file = null;
    String env = System.getenv(CONFIG_ENV);
    String root = System.getProperty("parl.root");
    if (env != null && !env.isBlank()) {
      file = Path.of(env);
    } else if (root != null && Files.isRegularFile(Path.of(root, FILE))) {
      file = Path.of(root, FILE);
    }
    Properties p = new Properties();
    try (InputStream in = file != null ? Files.newInputStream(file) : LimitSettings.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the limits file " + file + ": " + e.getMessage(), e);
    }
    OVERRIDES.forEach((key, value) -> p.setProperty(key, String.valueOf(value)));
    return of(p);
  }

  /** The settings named in {@code p}, defaults for the rest. */
  public static LimitSettings of(Properties p) {
    return new LimitSettings(
        (int) number(p, "gateway.maxConnectionsPerAddress", DEFAULTS.maxConnectionsPerAddress),
        (int) number(p, "gateway.maxConnections", DEFAULTS.maxConnections),
        (int) number(p, "gateway.maxUnauthenticated", DEFAULTS.maxUnauthenticated),
        (int) number(p, "jobs.maxWaitingPerClient", DEFAULTS.maxWaitingPerClient),
        number(p, "jobs.logMaxBytes", DEFAULTS.logMaxBytes),
        (int) number(p, "jobs.logKeepHours", DEFAULTS.logKeepHours),
        (int) number(p, "jobs.logKeepEnded", DEFAULTS.logKeepEnded),
        number(p, "jobs.codeCacheMaxBytes", DEFAULTS.codeCacheMaxBytes));
  }

  private static long number(Properties p, String key, long fallback) {
    String value = p.getProperty(key);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      long n = Long.parseLong(value.strip());
      if (n > Integer.MAX_VALUE && !key.endsWith("Bytes")) {
        throw new NumberFormatException("too large");
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " in " + FILE + " must be a whole number, not '" + value.strip() + "'", e);
    }
  }

  private static void positive(String key, long value) {
    if (value < 1) {
      throw new IllegalArgumentException(key + " in " + FILE + " must be at least 1, not " + value);
    }
  }
}
