package org.parl.worker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The GPUs of this host, read from {@code nvidia-smi}. The binary can be replaced (option
 * {@code --nvidia-smi} or {@code PARL_NVIDIA_SMI}); tests use a script that prints N fake GPUs,
 * and nothing else about GPUs is faked.
 *
 * <p>Runs a process and waits for it: call it off the event loop.
 */
public final class GpuInventory {

  public static final String ENV = "PARL_NVIDIA_SMI";
  static final String QUERY = "--query-gpu=index,uuid,name,memory.total,memory.used,utilization.gpu";
  private static final long TIMEOUT_S = 15;

  private final String binary;

  public GpuInventory(String binary) {
    this.binary = binary;
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

  /** The result of one query: the devices, or why there are none. */
  public record Reading(List<GpuDevice> devices, Optional<String> problem) {

    public List<Integer> ids() {
      return devices.stream().map(GpuDevice::index).toList();
    }
  }

  public Reading read() {
    Process p;
    try {
      p = new ProcessBuilder(binary, QUERY, "--format=csv,noheader,nounits").redirectErrorStream(true).start();
    } catch (IOException e) {
      return new Reading(List.of(), Optional.of(binary + " cannot be run (" + e.getMessage()
          + "): no NVIDIA driver here, or pass its path with --nvidia-smi / " + ENV));
    }
    try (InputStream in = p.getInputStream()) {
      p.getOutputStream().close();
      String out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Reading(List.of(), Optional.of(binary + " did not answer within " + TIMEOUT_S + " s"));
      }
      if (p.exitValue() != 0) {
        return new Reading(List.of(), Optional.of(binary + " failed (exit " + p.exitValue() + "): " + firstLine(out)));
      }
      return parse(out);
    } catch (IOException e) {
      return new Reading(List.of(), Optional.of("reading " + binary + " failed: " + e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      return new Reading(List.of(), Optional.of("interrupted while running " + binary));
    }
  }

  /** Parses {@code index, uuid, name, memory.total, memory.used, utilization.gpu} lines. */
  static Reading parse(String csv) {
    List<GpuDevice> devices = new ArrayList<>();
    for (String line : csv.split("\\R")) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.split(",");
      if (f.length < 6) {
        return new Reading(List.of(), Optional.of("unexpected nvidia-smi line: " + line.strip()));
      }
      try {
        devices.add(new GpuDevice(Integer.parseInt(f[0].strip()), f[1].strip(), f[2].strip(),
            number(f[3]), number(f[4]), (int) number(f[5])));
      } catch (NumberFormatException e) {
        return new Reading(List.of(), Optional.of("unexpected nvidia-smi line: " + line.strip()));
      }
    }
    return new Reading(devices, Optional.empty());
  }

  /** nvidia-smi prints "[N/A]" or "[Not Supported]" for values some GPUs do not report. */
  private static long number(String s) {
    String t = s.strip();
    return t.startsWith("[") ? 0 : Math.round(Double.parseDouble(t));
  }

  private static String firstLine(String s) {
    String t = s.strip();
    int nl = t.indexOf('\n');
    return nl < 0 ? t : t.substring(0, nl);
  }
}
