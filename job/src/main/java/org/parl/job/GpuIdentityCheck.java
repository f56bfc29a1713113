package org.parl.job;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import org.parl.internal.wire.JobControl.GpuMismatch;

/**
 * Checks, before a GPU actor's constructor runs, that the devices the CUDA driver shows this
 * process ({@link CudaDevices}) are exactly the GPUs its worker allocated, given by UUID with
 * {@code --gpu-uuids}. A process keeps its {@code CUDA_VISIBLE_DEVICES} for life, so the check
 * runs once, when the process starts, and every create of the process gets its result: run before
 * the process's reuse baseline ({@link ReuseCheck}), what it leaves (the driver's and JNA's
 * libraries, JNA's cleaner thread, the system property below) never makes a GPU process dirty.
 *
 * <p>Without {@code libcuda.so.1} the check says so once in the job's log and is skipped. A
 * mismatch fails the create with both lists and is reported once to the worker ({@link GpuMismatch}). The result is also
 * the system property {@value #PROPERTY} ({@code passed: ...}, {@code skipped: ...} or
 * {@code failed: ...}), for an actor that wants to say what it runs on.
 */
final class GpuIdentityCheck {

  static final String PROPERTY = "parl.gpu.identity";
  /** How every result's message starts; the outcome in words follows. */
  private static final String PREFIX = "GPU identity check ";

  /** How the check came out. */
  enum Outcome { PASSED, SKIPPED, FAILED }

  /**
   * @param message the result in words, as logged
   * @param seen the UUIDs the driver showed, formatted as nvidia-smi prints them (empty when skipped)
   */
  record Result(Outcome outcome, String message, List<String> seen) {}

  /** A source of the driver's devices: {@link CudaDevices#read()} outside tests. */
  interface Driver {
    CudaDevices.Seen read() throws CudaDevices.Unavailable, CudaDevices.DriverError;
  }

  private final List<String> expected;
  private final String visibleDevices;
  private final Driver driver;
  private final Consumer<GpuMismatch> report;
  private Result result;
  private boolean reported;

  /**
   * @param expected the allocation's UUIDs ({@code GPU-...} or {@code MIG-...}), in order; empty for a CPU job
   * @param visibleDevices this process's {@code CUDA_VISIBLE_DEVICES}, for messages
   * @param report where a mismatch is reported (the worker), once, at a create
   */
  GpuIdentityCheck(List<String> expected, String visibleDevices, Driver driver, Consumer<GpuMismatch> report) {
    this.expected = List.copyOf(expected);
    this.visibleDevices = visibleDevices == null ? "" : visibleDevices;
    this.driver = driver;
    this.report = report;
  }

  /** Whether there is anything to check: only GPU jobs whose worker knows their UUIDs check. */
  boolean applies() {
    return !expected.isEmpty();
  }

  /** The check's result, run on first use; the outcome is logged once. */
  synchronized Result result() {
    if (result == null) {
      result = run();
      JobMain.log(result.message());
      System.setProperty(PROPERTY, result.message().substring(PREFIX.length()));
    }
    return result;
  }

  /**
   * The result for a create: when the check failed, tells the worker (once, from the first create
   * it fails, so that the worker names that job).
   */
  synchronized Result forCreate() {
    Result r = result();
    if (r.outcome() == Outcome.FAILED && !reported) {
      reported = true;
      report.accept(new GpuMismatch(expected, r.seen()));
    }
    return r;
  }

  private Result run() {
    List<String> bodies = new ArrayList<>();
    for (String uuid : expected) {
      String body = body(uuid);
      if (body == null) {
        return skipped("the allocation's UUID " + uuid + " is not of the 16-byte form the CUDA driver reports");
      }
      bodies.add(body);
    }
    CudaDevices.Seen seen;
    try {
      seen = driver.read();
    } catch (CudaDevices.Unavailable e) {
      return skipped(e.getMessage());
    } catch (CudaDevices.DriverError e) {
      return new Result(Outcome.FAILED, PREFIX + "failed: " + e.getMessage() + " (allocation " + expected
          + ", CUDA_VISIBLE_DEVICES=" + visibleDevices + ")", List.of());
    }
    boolean mig = expected.stream().anyMatch(u -> u.startsWith("MIG-"));
    if (mig && !seen.migAware()) {
      return skipped("this CUDA driver has no cuDeviceGetUuid_v2, which MIG instances' UUIDs need");
    }
    List<String> shown = seen.uuids().stream().map(hex -> format(hex, mig)).toList();
    if (sorted(bodies).equals(sorted(seen.uuids()))) {
      return new Result(Outcome.PASSED, PREFIX + "passed: the CUDA driver shows " + shown
          + ", this job's allocation", shown);
    }
    String message = PREFIX + "failed: the CUDA driver shows " + (shown.isEmpty() ? "no device" : shown)
        + " but this job was allocated " + expected + " (CUDA_VISIBLE_DEVICES=" + visibleDevices + ")";
    return new Result(Outcome.FAILED, message, shown);
  }

  private Result skipped(String why) {
    return new Result(Outcome.SKIPPED, PREFIX + "skipped: " + why, List.of());
  }

  /** The 32 hex digits of a {@code GPU-}/{@code MIG-} UUID, or null for another form (pre-R470 MIG names). */
  static String body(String uuid) {
    int dash = uuid.indexOf('-');
    if (dash < 0) {
      return null;
    }
    String hex = uuid.substring(dash + 1).replace("-", "").toLowerCase(Locale.ROOT);
    return hex.matches("[0-9a-f]{32}") ? hex : null;
  }

  /** 32 hex digits as nvidia-smi prints a UUID: {@code GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}. */
  static String format(String hex, boolean mig) {
    return (mig ? "MIG-" : "GPU-") + hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-"
        + hex.substring(16, 20) + "-" + hex.substring(20);
  }

  private static List<String> sorted(List<String> l) {
    return l.stream().sorted().toList();
  }
}
