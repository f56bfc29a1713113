package org.parl.worker;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.parl.internal.security.PrivatePaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job's log as its worker writes it: bounded on every write, not by a timer. A write that would
 * take the log past its cap first rotates it: the log's last quarter is kept as {@code <log>.1}
 * and the log starts over, so a log never holds more than its cap (and its {@code .1} a quarter
 * of it). The log it writes to can be switched ({@link #switchTo}): a process reused for another
 * job writes to that job's log. Files are created mode 0600. Used by one thread at a time.
 */
final class CappedLog implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(CappedLog.class);

  private final long maxBytes;
  private Path path;
  private FileChannel channel;

  /** @param maxBytes the cap of each log; a single write larger than it keeps only its last {@code maxBytes} */
  CappedLog(Path path, long maxBytes) throws IOException {
    this.maxBytes = maxBytes;
    open(path);
  }

  private void open(Path next) throws IOException {
    PrivatePaths.createFileIfAbsent(next);
    channel = FileChannel.open(next, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    path = next;
  }

  Path path() {
    return path;
  }

  /** Writes to another log from now on (a reused process's next job). */
  void switchTo(Path next) throws IOException {
    if (!next.equals(path)) {
      channel.close();
      open(next);
    }
  }

  void write(byte[] b, int off, int len) throws IOException {
    if (len > maxBytes) {
      off += (int) (len - maxBytes);
      len = (int) maxBytes;
    }
    if (channel.size() + len > maxBytes) {
      rotate();
    }
    ByteBuffer buf = ByteBuffer.wrap(b, off, len);
    while (buf.hasRemaining()) {
      channel.write(buf);
    }
  }

  /** Keeps the log's last quarter in {@code <log>.1} and empties the log. */
  private void rotate() throws IOException {
    long size = channel.size();
    ByteBuffer tail = ByteBuffer.allocate((int) Math.min(Math.min(size, maxBytes / 4), 16L << 20));
    try (FileChannel read = FileChannel.open(path, StandardOpenOption.READ)) {
      read.read(tail, size - tail.capacity());
    }
    tail.flip();
    Path old = LogJanitor.rotated(path);
    PrivatePaths.createFileIfAbsent(old);
    try (FileChannel out = FileChannel.open(old, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
      while (tail.hasRemaining()) {
        out.write(tail);
      }
    }
    channel.truncate(0);
    log.info("rotated job log {}: it reached {} bytes; its last part is in {}", path.getFileName(), maxBytes,
        old.getFileName());
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }
}
