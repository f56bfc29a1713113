package org.parl.worker;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries a job process's standard output and error (one pipe) into its log through a
 * {@link CappedLog}, on a thread of its own: the worker, not the job, writes the log, so the cap
 * holds on every write however fast the job prints (a job that prints faster than the disk takes
 * waits on its full pipe), and output of every kind (Java, native code, the JVM itself) follows
 * the process to the log of the job it serves now ({@link #target}), also after a reuse.
 */
final class JobOutput {

  private static final Logger log = LoggerFactory.getLogger(JobOutput.class);
  private static final int BUFFER = 8192;
  /** The pump's stack: it only copies bytes. */
  private static final long STACK_BYTES = 256 * 1024;

  private final CappedLog out;
  private final Thread pump;
  private volatile Path target;

  private JobOutput(InputStream in, CappedLog out, String name) {
    this.out = out;
    this.target = out.path();
    this.pump = new Thread(null, () -> pump(in), "parl-job-output-" + name, STACK_BYTES);
    pump.setDaemon(true);
  }

  /** Starts carrying {@code in} (the process's output) to {@code log}, capped at {@code maxBytes}. */
  static JobOutput start(InputStream in, Path log, long maxBytes, String name) throws IOException {
    JobOutput o = new JobOutput(in, new CappedLog(log, maxBytes), name);
    o.pump.start();
    return o;
  }

  /** The process serves another job from now on: its output goes to that job's log. */
  void target(Path log) {
    target = log;
  }

  /** Waits up to {@code ms} until all the process wrote is in its log (it ended and its pipe is drained). */
  boolean awaitDrained(long ms) throws InterruptedException {
    pump.join(ms);
    return !pump.isAlive();
  }

  /**
   * Copies until the pipe ends (the process and every holder of its output are gone). A log that
   * cannot be written is said once; the pipe is still drained, so that the job never blocks on it.
   */
  private void pump(InputStream in) {
    byte[] buf = new byte[BUFFER];
    boolean writing = true;
    try (in; out) {
      for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
        if (!writing) {
          continue;
        }
        try {
          Path now = target;
          if (!now.equals(out.path())) {
            out.switchTo(now);
          }
          out.write(buf, 0, n);
        } catch (IOException e) {
          writing = false;
          log.warn("cannot write the job log {} ({}): the job's further output is dropped", out.path(), e.getMessage());
        }
      }
    } catch (IOException e) {
      log.debug("the output pipe of a job process ended: {}", e.getMessage());
    }
  }
}
