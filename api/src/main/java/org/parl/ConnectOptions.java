package org.parl;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** How a client connects to a cluster; the setters return {@code this}. */
public class ConnectOptions {

  /** System property that, set to {@code false}, makes {@link #isSharedMemory()} false by default. */
  public static final String SHARED_MEMORY_PROPERTY = "parl.sharedMemory";

  /**
   * Environment variable naming the cluster a program runs against ({@code HOST:PORT}, or several
   * masters comma-separated): set by {@code bin/parl slurm} for the command it runs; the default
   * address of new options when set.
   */
  public static final String ADDRESS_ENV = "PARL_ADDRESS";
  /** The address when {@value #ADDRESS_ENV} is not set: a master on this host at its default port. */
  public static final String DEFAULT_ADDRESS = "127.0.0.1:8010";

  private String address = defaultAddress();
  private List<String> distributedFiles = new ArrayList<>();
  private Duration resourceWaitTimeout = Duration.ofSeconds(300);
  private Duration connectTimeout = Duration.ofSeconds(10);
  private Path tokenFile;
  private String token;
  private Duration callTimeout;
  private boolean sharedMemory = !"false".equals(System.getProperty(SHARED_MEMORY_PROPERTY));

  /** Options for the cluster at {@code $PARL_ADDRESS}, else at {@value #DEFAULT_ADDRESS}. */
  public ConnectOptions() {}

  private static String defaultAddress() {
    String env = System.getenv(ADDRESS_ENV);
    return env != null && !env.isBlank() ? env.strip() : DEFAULT_ADDRESS;
  }

  public ConnectOptions(String address) {
    setAddress(address);
  }

  /**
   * A copy of {@code other}, as Vert.x options copy: a client takes one when it connects, so that
   * changing the caller's object afterwards changes nothing of a running client.
   */
  public ConnectOptions(ConnectOptions other) {
    address = other.address;
    distributedFiles = new ArrayList<>(other.distributedFiles);
    resourceWaitTimeout = other.resourceWaitTimeout;
    connectTimeout = other.connectTimeout;
    tokenFile = other.tokenFile;
    token = other.token;
    callTimeout = other.callTimeout;
    sharedMemory = other.sharedMemory;
  }

  /** The longest resource wait or connect timeout: a day. */
  public static final Duration MAX_TIMEOUT = Duration.ofDays(1);

  private static Duration checked(String what, Duration timeout, boolean zeroAllowed) {
    Objects.requireNonNull(timeout, what);
    if (timeout.isNegative() || (!zeroAllowed && timeout.isZero()) || timeout.compareTo(MAX_TIMEOUT) > 0) {
      throw new IllegalArgumentException("a " + what + " must be between " + (zeroAllowed ? "0" : "1 ms") + " and "
          + MAX_TIMEOUT.toHours() + " hours, not " + timeout);
    }
    return timeout;
  }

  /**
   * The master's {@code HOST:PORT}, as printed by {@code bin/parl master}; or several masters of one
   * cluster, comma-separated ({@code "hostA:8010,hostB:8011"}, docs/contract.md §10): the client connects to the
   * first that answers and, when that master dies or stops, carries on with another by itself, its
   * actors still its own.
   */
  public String getAddress() {
    return address;
  }

  public ConnectOptions setAddress(String address) {
    this.address = Objects.requireNonNull(address, "address");
    return this;
  }

  /**
   * Glob patterns, relative to the current directory, of files every job receives in its working
   * directory (like PARL's {@code distributed_files}), e.g. {@code "config/*.json"}.
   */
  public List<String> getDistributedFiles() {
    return distributedFiles;
  }

  public ConnectOptions setDistributedFiles(List<String> patterns) {
    this.distributedFiles = new ArrayList<>(patterns);
    return this;
  }

  public ConnectOptions addDistributedFiles(String... patterns) {
    distributedFiles.addAll(List.of(patterns));
    return this;
  }

  /** How long an actor creation waits for vacant resources before a {@link ResourceException} (default 300 s). */
  public Duration getResourceWaitTimeout() {
    return resourceWaitTimeout;
  }

  /**
   * @param timeout from 1 ms to a day
   * @throws IllegalArgumentException when it is zero, negative or above a day (the message gives the range)
   */
  public ConnectOptions setResourceWaitTimeout(Duration timeout) {
    this.resourceWaitTimeout = checked("resource wait timeout", timeout, false);
    return this;
  }

  /** How long connecting to the master may take (default 10 s). */
  public Duration getConnectTimeout() {
    return connectTimeout;
  }

  /**
   * @param timeout from 1 ms to a day
   * @throws IllegalArgumentException when it is zero, negative or above a day (the message gives the range)
   */
  public ConnectOptions setConnectTimeout(Duration timeout) {
    this.connectTimeout = checked("connect timeout", timeout, false);
    return this;
  }

  /** The file holding the cluster token, or null (the default): see {@link #setTokenFile}. */
  public Path getTokenFile() {
    return tokenFile;
  }

  /**
   * The file holding the cluster token (docs/contract.md §9), such as a copy of the master's
   * {@code $PARL_HOME/token}; it must be readable by its owner only (mode 600). Without it (and
   * without {@link #setToken}), the client looks, in order, at {@code PARL_TOKEN} (the value),
   * the file named by {@code PARL_TOKEN_FILE}, then {@code $PARL_HOME/token} ({@code PARL_HOME}
   * defaults to {@code ~/.parl}), so that on the master's host nothing needs setting.
   * {@code Parl.connect} fails with {@link AuthenticationException}, naming where it looked, when
   * no token is found there or the master does not accept it. The token itself never crosses the
   * network: the client proves that it holds it.
   *
   * @param file the token file, or null to look in the usual places
   */
  public ConnectOptions setTokenFile(Path file) {
    this.tokenFile = file;
    return this;
  }

  /** The cluster token given as a value, or null (the default): see {@link #setToken}. */
  public String getToken() {
    return token;
  }

  /**
   * The cluster token itself (the content of the master's {@code $PARL_HOME/token}), ahead of
   * {@link #setTokenFile} and of every other place the client would look. Prefer a token file or
   * {@code PARL_TOKEN}, which keep the secret out of the program's code and arguments.
   * {@code Parl.connect} fails with {@link AuthenticationException} when it is malformed or the
   * master does not accept it.
   *
   * @param token the token, or null to look for it as {@link #setTokenFile} says
   */
  public ConnectOptions setToken(String token) {
    this.token = token;
    return this;
  }

  /**
   * How long a call to an actor may wait for its answer before it fails with a
   * {@link CallTimeoutException}, or null (the default) for no limit: a call to a live actor waits
   * for its answer, and a call to a lost one fails with {@link ActorLostException} whatever the
   * timeout. The time counts from the call, so it includes waiting behind earlier calls to the same
   * actor (they run one at a time, in order). {@link RemoteActor#withTimeout(Duration)} sets it per
   * actor handle.
   */
  public Duration getCallTimeout() {
    return callTimeout;
  }

  /**
   * @param timeout a positive duration, or null for no call timeout
   * @throws IllegalArgumentException if {@code timeout} is zero or negative
   */
  public ConnectOptions setCallTimeout(Duration timeout) {
    if (timeout != null && (timeout.isZero() || timeout.isNegative())) {
      throw new IllegalArgumentException("a call timeout must be positive (or null for none), not " + timeout);
    }
    this.callTimeout = timeout;
    return this;
  }

  /**
   * Whether large primitive arrays (64 KiB and more) to and from an actor whose job runs on this
   * client's own host go through memory shared with the job instead of the socket (true by default,
   * false when the system property {@value #SHARED_MEMORY_PROPERTY} is {@code false}). Across hosts,
   * or when the shared memory cannot be set up, they go on the socket either way.
   */
  public boolean isSharedMemory() {
    return sharedMemory;
  }

  /** @param sharedMemory false to send every array on the socket, even to a job on this host */
  public ConnectOptions setSharedMemory(boolean sharedMemory) {
    this.sharedMemory = sharedMemory;
    return this;
  }
}
