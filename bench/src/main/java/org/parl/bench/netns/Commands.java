package org.parl.bench.netns;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs short system commands ({@code ip}, {@code ss}, {@code bash}) with a deadline and collects
 * their output; a failure carries the command line and what it printed.
 */
public final class Commands {

  private static final long DEADLINE_S = 30;

  /** What a finished command returned. */
  public record Result(int exit, String output) {
    public boolean ok() {
      return exit == 0;
    }
  }

  private Commands() {}

  /** Runs {@code cmd}; never throws for a non-zero exit (an unstartable command gives exit -1). */
  public static Result tryRun(List<String> cmd) {
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      return new Result(-1, e.getMessage());
    }
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
    try {
      p.getOutputStream().close();
      if (!p.waitFor(DEADLINE_S, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return new Result(-1, "still running after " + DEADLINE_S + " s; killed");
      }
      return new Result(p.exitValue(), out.get(5, TimeUnit.SECONDS).strip());
    } catch (Exception e) {
      p.destroyForcibly();
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      return new Result(-1, String.valueOf(e));
    }
  }

  public static Result tryRun(String... cmd) {
    return tryRun(List.of(cmd));
  }

  /** Runs {@code cmd} and returns its output; a non-zero exit is an {@link IllegalStateException}. */
  public static String run(String... cmd) {
    Result r = tryRun(cmd);
    if (!r.ok()) {
      throw new IllegalStateException(String.join(" ", cmd) + " failed (exit " + r.exit() + "): " + r.output());
    }
    return r.output();
  }

  private static String read(InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
