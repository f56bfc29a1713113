package org.parl.worker;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The last lines of a job's log file, read from its end (blocking). */
public final class LogTail {

  public static final int MAX_LINES = 10_000;
  /** The most of a log one download returns: its end. */
  public static final int MAX_DOWNLOAD_BYTES = 16 << 20;
  private static final int MAX_BYTES = 4 << 20;

  private LogTail() {}

  /**
   * The whole file, or its last {@code maxBytes} bytes after a line saying how much was left out
   * when it is longer.
   */
  public static String readAll(Path file, int maxBytes) throws IOException {
    if (!Files.exists(file)) {
      return "";
    }
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      long size = f.length();
      long start = Math.max(0, size - maxBytes);
      byte[] text = new byte[(int) (size - start)];
      f.seek(start);
      f.readFully(text);
      String body = new String(text, StandardCharsets.UTF_8);
      return start == 0 ? body : "[parl: the first " + start + " bytes of this log are left out]\n" + body;
    }
  }

  public static String read(Path file, int lines) throws IOException {
    if (!Files.exists(file)) {
      return "";
    }
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      long end = f.length();
      long start = end;
      int found = 0;
      byte[] chunk = new byte[8192];
      while (start > 0 && found < lines && end - start < MAX_BYTES) {
        int n = (int) Math.min(chunk.length, start);
        start -= n;
        f.seek(start);
        f.readFully(chunk, 0, n);
        for (int i = n - 1; i >= 0; i--) {
          if (chunk[i] == '\n' && start + i != end - 1) {
            found++;
            if (found == lines) {
              start += i + 1;
              break;
            }
          }
        }
      }
      byte[] text = new byte[(int) (end - start)];
      f.seek(start);
      f.readFully(text);
      return new String(text, StandardCharsets.UTF_8);
    }
  }
}
