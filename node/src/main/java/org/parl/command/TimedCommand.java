package org.parl.command;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs an external command under a deadline that is enforced (docs/contract.md §8): its output is read on a
 * thread of its own, so a command that never writes or never exits cannot block the caller, and
 * one that overruns is killed with every process it started. Blocking: call it off the event loop.
 */
public final class TimedCommand {

  /** Output kept at most; a command that writes more is cut off there. */
  static final int MAX_OUTPUT = 1 << 20;
  /** Time the output gets to arrive once the command has exited. */
  private static final long DRAIN_NS = TimeUnit.MILLISECONDS.toNanos(500);

  /** What the command printed (stdout and stderr together) and its exit status. */
  public record Outcome(int exitCode, String output) {}

  private TimedCommand() {}

  /**
   * @throws IOException when the command cannot be started or its output cannot be read
   * @throws TimeoutException when it overran the deadline: it has been killed
   */
  public static Outcome run(List<String> command, Duration deadline) throws IOException, TimeoutException, InterruptedException {
    long end = System.nanoTime() + deadline.toNanos();
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      p.getOutputStream().close();
      CompletableFuture<byte[]> output = readAll(p.getInputStream());
      if (!p.waitFor(end - System.nanoTime(), TimeUnit.NANOSECONDS)) {
        throw new TimeoutException();
      }
      // a child that keeps the output open overruns too, once the process itself has exited
      byte[] out = output.get(Math.max(end - System.nanoTime(), DRAIN_NS), TimeUnit.NANOSECONDS);
      return new Outcome(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    } catch (ExecutionException e) {
      throw new IOException("reading its output failed: " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException | InterruptedException e) {
      killTree(p.toHandle());
      throw e;
    }
  }

  private static CompletableFuture<byte[]> readAll(InputStream in) {
    CompletableFuture<byte[]> output = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (in) {
        output.complete(in.readNBytes(MAX_OUTPUT));
      } catch (IOException e) {
        output.completeExceptionally(e);
      }
    }, "parl-command-output");
    reader.setDaemon(true);
    reader.start();
    return output;
  }

  /**
   * Kills a process and its descendants, listed first: once it is dead they are re-parented and no
   * longer its descendants. Returns when the process itself is gone (a second at most); SIGKILL
   * cannot be refused, so the descendants follow at once.
   */
  static void killTree(ProcessHandle process) throws InterruptedException {
    List<ProcessHandle> tree = process.descendants().toList();
    process.destroyForcibly();
    tree.forEach(ProcessHandle::destroyForcibly);
    try {
      process.onExit().get(1, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      // it is about to go: nothing to wait for that could change what the caller does
    }
  }
}
