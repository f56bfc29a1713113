package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job's output reaches its log through the worker: capped on every write, and to the log of the job it serves now. */
class JobOutputTest {

  private static final long CAP = 1 << 20;

  @TempDir
  Path dir;

  @Test
  void aProcessPrintingFastNeverTakesItsLogPastTheCap() throws Exception {
    Path log = dir.resolve("w1-1.log");
    // 64 MB as fast as a process can write them: a timer-based rotation let gigabytes through between checks
    Process p = new ProcessBuilder("sh", "-c", "head -c 67108864 /dev/zero | tr '\\0' x; echo; echo the end")
        .redirectErrorStream(true).start();
    JobOutput out = JobOutput.start(p.getInputStream(), log, CAP, "w1-1");
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the writer finished (it was never blocked for good)");
    assertTrue(out.awaitDrained(30_000));
    long size = Files.size(log);
    long rotated = Files.size(LogJanitor.rotated(log));
    System.out.printf("job log after 64 MB of output: %d bytes, %s.1: %d bytes (cap %d)%n", size, log.getFileName(), rotated, CAP);
    assertTrue(size <= CAP, "the log holds " + size + " bytes, over its cap of " + CAP);
    assertTrue(rotated <= CAP / 4, "its rotated part holds " + rotated + " bytes");
    assertTrue(Files.readString(log).endsWith("the end\n"), "the latest output is kept");
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)));
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(LogJanitor.rotated(log))));
  }

  @Test
  void everyWriteStaysWithinTheCap() throws Exception {
    Path log = dir.resolve("w1-2.log");
    try (CappedLog capped = new CappedLog(log, 10_000)) {
      for (int n : new int[] {1, 9_999, 1, 5_000, 6_000, 123, 10_000, 25_000, 3}) {
        capped.write(new byte[n], 0, n);
        assertTrue(Files.size(log) <= 10_000, "after a write of " + n + ": " + Files.size(log));
      }
      assertEquals(3, Files.size(log));
    }
  }

  @Test
  void aReusedProcessWritesToTheLogOfTheJobItServesNow() throws Exception {
    Path first = dir.resolve("w1-3.log");
    Path next = dir.resolve("w1-4.log");
    Chunks pipe = new Chunks();
    JobOutput out = JobOutput.start(pipe, first, CAP, "w1-3");
    pipe.send("the first actor's last words\n");
    pipe.awaitReads(2); // the reader came back after the one chunk sent: that chunk is in the first log
    out.target(next); // the worker assigns the process to the next job
    pipe.send("the next actor's first words\n");
    pipe.end();
    assertTrue(out.awaitDrained(10_000));
    assertEquals("the first actor's last words\n", Files.readString(first));
    assertEquals("the next actor's first words\n", Files.readString(next), "not in the previous job's log");
  }

  /** A process's output pipe, fed by the test: it can tell when the reader came back for more. */
  private static final class Chunks extends InputStream {
    private final BlockingQueue<byte[]> chunks = new LinkedBlockingQueue<>();
    private final Semaphore reads = new Semaphore(0);

    void send(String s) {
      chunks.add(s.getBytes(StandardCharsets.UTF_8));
    }

    void end() {
      chunks.add(new byte[0]);
    }

    /** Waits until the reader has begun {@code n} reads in all (it writes each chunk before its next read). */
    void awaitReads(int n) throws InterruptedException {
      assertTrue(reads.tryAcquire(n, 10, TimeUnit.SECONDS), "the reader's read number " + n + " began");
    }

    @Override
    public int read() {
      throw new UnsupportedOperationException();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      reads.release();
      try {
        byte[] c = chunks.take();
        if (c.length == 0) {
          return -1;
        }
        System.arraycopy(c, 0, b, off, c.length);
        return c.length;
      } catch (InterruptedException e) {
        throw new IOException(e);
      }
    }
  }
}
