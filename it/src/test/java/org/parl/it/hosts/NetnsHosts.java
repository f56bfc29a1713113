package org.parl.it.hosts;

import java.util.ArrayList;
import java.util.List;
import org.parl.bench.netns.NetnsBed;
import org.parl.it.ParlProcess;

/**
 * A test bed of several hosts on one machine ({@link NetnsBed}: network namespaces on a private
 * bridge, host {@code i} at {@code 10.77.0.(i+2)/24}), with the processes the test started in them.
 *
 * <p>{@link #close()} stops those processes, then the bed kills whatever else runs inside and
 * deletes itself. Tests that need a bed are skipped, with the reason, only where the kernel refuses
 * namespaces (not root, no {@code ip}), and fail there under {@link Required}'s variable.
 */
public final class NetnsHosts implements AutoCloseable {

  private final NetnsBed bed;
  private final List<Host> hosts = new ArrayList<>();
  private final List<ParlProcess> processes = new ArrayList<>();
  private boolean closed;

  private NetnsHosts(NetnsBed bed) {
    this.bed = bed;
    for (int i = 0; i < bed.size(); i++) {
      hosts.add(new Host(String.valueOf((char) ('A' + i)), i, bed, this));
    }
  }

  /**
   * Creates {@code count} hosts labelled A, B, C... at 10.77.0.2, .3, .4...; aborts the calling
   * test ({@link Required}) when this machine cannot make network namespaces.
   */
  public static NetnsHosts create(int count) {
    try {
      return new NetnsHosts(NetnsBed.create(count));
    } catch (NetnsBed.Unavailable e) {
      Required.missing(e.getMessage() + " (bin/setup-packages installs iproute2; namespaces need root)");
      throw e; // not reached: missing throws
    }
  }

  /** Host {@code i}, from 0 (A, 10.77.0.2). */
  public Host host(int i) {
    return hosts.get(i);
  }

  public List<Host> hosts() {
    return List.copyOf(hosts);
  }

  synchronized ParlProcess track(ParlProcess p) {
    if (closed) {
      p.close();
      throw new IllegalStateException("the test bed is closed");
    }
    processes.add(p);
    return p;
  }

  /** Names of this bed still present in the system (namespaces and root links); empty once closed. */
  public List<String> remains() {
    return bed.remains();
  }

  /** Stops what the test started in the bed, then deletes the bed; safe to call twice. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    processes.forEach(ParlProcess::close);
    bed.close();
  }

  @Override
  public String toString() {
    return "test " + bed + " " + hosts;
  }
}
