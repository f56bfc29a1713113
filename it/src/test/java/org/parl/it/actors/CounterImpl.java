package org.parl.it.actors;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The test actor: state, arrays, records, generics, failures, files, memory. */
public class CounterImpl implements Counter {

  private int count;
  private final List<byte[]> hoard = new ArrayList<>();

  public CounterImpl() {}

  public CounterImpl(int start) {
    this.count = start;
  }

  @Override
  public int add(int x) {
    count += x;
    return count;
  }

  @Override
  public int value() {
    return count;
  }

  @Override
  public void reset() {
    count = 0;
  }

  @Override
  public String env(String name) {
    return System.getenv(name);
  }

  @Override
  public float[] echo(float[] data) {
    return data;
  }

  @Override
  public double[] scale(double[] data, double factor) {
    double[] out = new double[data.length];
    for (int i = 0; i < data.length; i++) {
      out[i] = data[i] * factor;
    }
    return out;
  }

  @Override
  public byte[] bytes(int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) i;
    }
    return b;
  }

  @Override
  public Point move(Point p, int dx) {
    return new Point(p.x() + dx, p.y(), p.label() + "+" + dx);
  }

  @Override
  public List<Point> points(int n) {
    List<Point> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new Point(i, -i, "p" + i));
    }
    return out;
  }

  @Override
  public Map<String, List<Integer>> groups(List<String> names) {
    Map<String, List<Integer>> out = new LinkedHashMap<>();
    for (String n : names) {
      out.computeIfAbsent(n.substring(0, 1), k -> new ArrayList<>()).add(n.length());
    }
    return out;
  }

  @Override
  public void fail(String message) {
    throw new IllegalStateException(message);
  }

  @Override
  public String readFile(String name) {
    try {
      return Files.readString(Path.of(name));
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read " + name + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void print(String line) {
    System.out.println(line);
  }

  @Override
  public long allocate(int mb) {
    for (int i = 0; i < mb; i++) {
      byte[] block = new byte[1 << 20];
      for (int j = 0; j < block.length; j += 4096) {
        block[j] = 1;
      }
      hoard.add(block);
    }
    return hoard.size();
  }

  @Override
  public void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void markThenSleep(String marker, long ms) {
    try {
      Files.writeString(Path.of(marker), "running");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    sleep(ms);
  }

  @Override
  public int pid() {
    return (int) ProcessHandle.current().pid();
  }

  @Override
  public List<Long> spawnTree() {
    try {
      List<Long> pids = new ArrayList<>();
      pids.add(new ProcessBuilder("sleep", "600").redirectOutput(ProcessBuilder.Redirect.DISCARD).start().pid());
      Process sh = new ProcessBuilder("sh", "-c",
          "sleep 600 >/dev/null 2>&1 & echo $!; setsid sleep 600 >/dev/null 2>&1 & echo $!").start();
      for (String line : new String(sh.getInputStream().readAllBytes()).split("\\s+")) {
        if (!line.isBlank()) {
          pids.add(Long.parseLong(line.trim()));
        }
      }
      sh.waitFor();
      return pids;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public long spawnHog(int mb) {
    try {
      // tail keeps a line without its end in memory: mb MiB of zeros, then it waits for the rest
      return new ProcessBuilder("sh", "-c", "{ head -c " + mb + "m /dev/zero; sleep 600; } | tail")
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().pid();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void exit(int status) {
    System.exit(status);
  }

  @Override
  public String describe(Object o) {
    return String.valueOf(o);
  }
}
