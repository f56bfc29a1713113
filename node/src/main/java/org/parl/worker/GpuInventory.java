package org.parl.worker;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * The GPUs of this host, read from {@code nvidia-smi}. The binary can be replaced (option
 * {@code --nvidia-smi} or {@code PARL_NVIDIA_SMI}); tests use a script that prints N fake GPUs,
 * and nothing else about GPUs is faked.
 *
 * <p>A query that fails, or overruns its deadline (the binary is then killed), falls back to the
 * last good reading, marked stale. Runs a process and waits for it: call it off the event loop.
 */
public final class GpuInventory {

  public static final String ENV = "PARL_NVIDIA_SMI";
  static final String QUERY = "--query-gpu=index,uuid,name,memory.total,memory.used,utilization.gpu";
  static final Duration DEADLINE = Duration.ofSeconds(15);

  private final String binary;
  private final Duration deadline;
  /** The devices of the last reading that succeeded, or null. */
  private volatile List<GpuDevice> lastGood;

  public GpuInventory(String binary) {
    this(binary, DEADLINE);
  }

  GpuInventory(String binary, Duration deadline) {
    this.binary = binary;
    this.deadline = deadline;
  }

  /** The binary from the option, else the environment, else {@code nvidia-smi} on the PATH. */
  public static GpuInventory of(String option) {
    String env = System.getenv(ENV);
    if (option != null && !option.isBlank()) {
      return new GpuInventory(option);
    }
    return new GpuInventory(env != null && !env.isBlank() ? env : "nvidia-smi");
  }

  public String binary() {
    return binary;
  }

  /**
   * The result of one query: the devices, or why there are none.
   *
   * @param stale the query failed ({@code problem} says why) and {@code devices} are those of the
   *     last query that succeeded
   */
  public record Reading(List<GpuDevice> devices, Optional<String> problem, boolean stale) {

    static Reading of(List<GpuDevice> devices) {
      return new Reading(List.copyOf(devices), Optional.empty(), false);
    }

    static Reading failed(String problem) {
      return new Reading(List.of(), Optional.of(problem), false);
    }

    public List<Integer> ids() {
      return devices.stream().map(GpuDevice::index).toList();
    }
  }

  public Reading read() {
    Reading r = query();
    if (r.problem().isEmpty()) {
      lastGood = r.devices();
      return r;
    }
    List<GpuDevice> last = lastGood;
    return last == null ? r : new Reading(last, r.problem(), true);
  }

  private Reading query() {
    TimedCommand.Outcome out;
    try {
      out = TimedCommand.run(List.of(binary, QUERY, "--format=csv,noheader,nounits"), deadline);
    } catch (TimeoutException e) {
      return Reading.failed(binary + " did not answer within " + describe(deadline) + "; it was killed");
    } catch (IOException e) {
      return Reading.failed(binary + " cannot be run (" + e.getMessage()
          + "): no NVIDIA driver here, or pass its path with --nvidia-smi / " + ENV);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Reading.failed("interrupted while running " + binary);
    }
    if (out.exitCode() != 0) {
      return Reading.failed(binary + " failed (exit " + out.exitCode() + "): " + firstLine(out.output()));
    }
    return NvidiaSmiCsv.parse(out.output());
  }

  private static String describe(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
  }

  private static String firstLine(String s) {
    String t = s.strip();
    int nl = t.indexOf('\n');
    return nl < 0 ? t : t.substring(0, nl);
  }
}
