package org.parl.worker.gpu;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.parl.command.TimedCommand;

/**
 * The GPUs of this host, read from {@code nvidia-smi}. The binary can be replaced (option
 * {@code --nvidia-smi} or {@code PARL_NVIDIA_SMI}); tests use a script that prints N fake GPUs,
 * and nothing else about GPUs is faked.
 *
 * <p>A reading runs two commands under one deadline: the query of the GPUs' figures and health
 * ({@link NvidiaSmiCsv}), and {@code nvidia-smi -L} for MIG instances ({@link NvidiaSmiList});
 * {@link GpuUnits} makes the units to lend from both. A reading that fails, or overruns its
 * deadline (the binary is then killed), falls back to the last good reading, marked stale. Runs
 * processes and waits for them: call it off the event loop.
 */
public final class GpuInventory {

  public static final String ENV = "PARL_NVIDIA_SMI";
  static final String QUERY = "--query-gpu=index,uuid,name,memory.total,memory.used,utilization.gpu,"
      + "ecc.errors.uncorrected.volatile.total,retired_pages.pending,remapped_rows.pending";
  static final String FORMAT = "--format=csv,noheader,nounits";
  /** How long one reading may take before nvidia-smi is killed and the last good reading stands in. */
  public static final Duration DEADLINE = Duration.ofSeconds(15);

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
   * The result of one query: the units to lend, or why there are none.
   *
   * @param devices the units: whole GPUs and MIG instances ({@link GpuDevice#mig()}), with their health
   * @param stale the query failed ({@code problem} says why) and {@code devices} are those of the
   *     last query that succeeded
   * @param unreadable what nvidia-smi said of GPUs it could not read at all and gave no index for
   *     ({@code Unable to determine the device handle for GPU 0000:3B:00.0: GPU is lost ...})
   */
  public record Reading(List<GpuDevice> devices, Optional<String> problem, boolean stale, List<String> unreadable) {

    public Reading(List<GpuDevice> devices, Optional<String> problem, boolean stale) {
      this(devices, problem, stale, List.of());
    }

    static Reading of(List<GpuDevice> devices) {
      return new Reading(List.copyOf(devices), Optional.empty(), false);
    }

    static Reading failed(String problem) {
      return new Reading(List.of(), Optional.of(problem), false);
    }

    Reading withDevices(List<GpuDevice> units) {
      return new Reading(List.copyOf(units), problem, stale, unreadable);
    }

    public List<Integer> ids() {
      return devices.stream().map(GpuDevice::index).toList();
    }
  }

  public Reading read() {
    Reading r = query();
    if (r.problem().isEmpty()) {
      r = withKnownUuids(r, lastGood);
      lastGood = r.devices();
      return r;
    }
    List<GpuDevice> last = lastGood;
    return last == null ? r : new Reading(last, r.problem(), true, List.of());
  }

  /** A lost GPU whose UUID the driver no longer gives keeps the one its index had at the last good reading. */
  private static Reading withKnownUuids(Reading r, List<GpuDevice> last) {
    if (last == null || r.devices().stream().allMatch(d -> !d.uuid().isEmpty())) {
      return r;
    }
    Map<Integer, String> known = new HashMap<>();
    last.forEach(d -> known.put(d.index(), d.uuid()));
    return r.withDevices(r.devices().stream()
        .map(d -> d.uuid().isEmpty() && known.containsKey(d.index()) ? d.withUuid(known.get(d.index())) : d).toList());
  }

  private Reading query() {
    long end = System.nanoTime() + deadline.toNanos();
    Reading gpus;
    List<NvidiaSmiList.Listed> listing;
    try {
      TimedCommand.Outcome out = TimedCommand.run(List.of(binary, QUERY, FORMAT), deadline);
      // a lost GPU makes nvidia-smi exit with a status of its own (15) after the rows it could read
      if (out.exitCode() != 0 && !NvidiaSmiCsv.saysLost(out.output())) {
        return Reading.failed(binary + " failed (exit " + out.exitCode() + "): " + firstLine(out.output()));
      }
      gpus = NvidiaSmiCsv.parse(out.output(), true);
      if (gpus.problem().isPresent()) {
        return gpus;
      }
      TimedCommand.Outcome list = TimedCommand.run(List.of(binary, "-L"), Duration.ofNanos(Math.max(1, end - System.nanoTime())));
      if (list.exitCode() != 0 && !NvidiaSmiCsv.saysLost(list.output())) {
        return Reading.failed(binary + " -L failed (exit " + list.exitCode() + "): " + firstLine(list.output()));
      }
      listing = NvidiaSmiList.parse(list.output());
    } catch (TimeoutException e) {
      return Reading.failed(binary + " did not answer within " + describe(deadline) + "; it was killed");
    } catch (IOException e) {
      return Reading.failed(binary + " cannot be run (" + e.getMessage()
          + "): no NVIDIA driver here, or pass its path with --nvidia-smi / " + ENV);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Reading.failed("interrupted while running " + binary);
    }
    try {
      return gpus.withDevices(GpuUnits.of(gpus.devices(), listing));
    } catch (IllegalStateException e) {
      return Reading.failed("cannot number the MIG instances of " + binary + ": " + e.getMessage());
    }
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
