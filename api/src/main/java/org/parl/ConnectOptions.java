package org.parl;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** How a client connects to a cluster; the setters return {@code this}. */
public class ConnectOptions {

  private String address = "127.0.0.1:8010";
  private List<String> distributedFiles = new ArrayList<>();
  private Duration resourceWaitTimeout = Duration.ofSeconds(300);
  private Duration connectTimeout = Duration.ofSeconds(10);
  private Duration callTimeout;

  public ConnectOptions() {}

  public ConnectOptions(String address) {
    setAddress(address);
  }

  /** The master's {@code HOST:PORT}, as printed by {@code bin/parl master}. */
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

  public ConnectOptions setResourceWaitTimeout(Duration timeout) {
    this.resourceWaitTimeout = Objects.requireNonNull(timeout, "timeout");
    return this;
  }

  /** How long connecting to the master may take (default 10 s). */
  public Duration getConnectTimeout() {
    return connectTimeout;
  }

  public ConnectOptions setConnectTimeout(Duration timeout) {
    this.connectTimeout = Objects.requireNonNull(timeout, "timeout");
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
}
