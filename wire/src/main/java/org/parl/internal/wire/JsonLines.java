package org.parl.internal.wire;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;
import io.vertx.core.parsetools.RecordParser;
import java.util.function.Consumer;

/**
 * Control messages over TCP as one JSON object per line: readable in a packet capture, easy to
 * speak from any language, and cheap enough for control traffic (the data path uses {@link Frames}).
 * The gateway protocol ({@code org.parl.internal.wire.gateway}) and the link between a worker and its job
 * processes ({@link JobControl}) send typed messages this way.
 */
public final class JsonLines {

  /** Longest control line accepted; anything longer is an attack or a bug. */
  public static final int MAX_LINE = 1 << 20;

  private JsonLines() {}

  /**
   * Splits the socket's input into lines and hands each non-empty one to {@code onLine}; a line
   * longer than {@link #MAX_LINE} goes to {@code onBad} with a reason, and closes the socket.
   */
  public static void readLines(NetSocket socket, Handler<Buffer> onLine, Consumer<String> onBad) {
    readLines(socket, MAX_LINE, onLine, onBad);
  }

  /**
   * Like {@link #readLines(NetSocket, Handler, Consumer)} with a smaller limit to begin with, such
   * as before a peer has authenticated; the returned reader raises it later. Once a line was too
   * long, nothing more is read.
   */
  public static LineReader readLines(NetSocket socket, int maxLine, Handler<Buffer> onLine, Consumer<String> onBad) {
    LineReader reader = new LineReader(maxLine);
    reader.parser = RecordParser.newDelimited("\n", line -> {
      if (reader.stopped) {
        return;
      }
      if (line.length() > reader.maxLine) { // a whole line can arrive in one read, past the parser's own check
        reader.refuse(socket, onBad);
      } else if (line.length() > 0) {
        onLine.handle(line);
      }
    });
    reader.parser.maxRecordSize(maxLine);
    reader.parser.exceptionHandler(e -> reader.refuse(socket, onBad));
    socket.handler(reader.parser);
    return reader;
  }

  /** The line reader of one socket. */
  public static final class LineReader {
    private RecordParser parser;
    private int maxLine;
    private boolean stopped;

    private LineReader(int maxLine) {
      this.maxLine = maxLine;
    }

    /** Sets the longest line accepted from now on, at most {@link #MAX_LINE}. */
    public void maxLine(int max) {
      maxLine = Math.min(max, MAX_LINE);
      parser.maxRecordSize(maxLine);
    }

    private void refuse(NetSocket socket, Consumer<String> onBad) {
      if (!stopped) {
        stopped = true;
        onBad.accept("line longer than " + maxLine + " bytes");
        socket.close();
      }
    }
  }

  /** Writes one line of already encoded JSON (which holds no raw newline). */
  public static void write(NetSocket socket, byte[] json) {
    socket.write(Buffer.buffer(json.length + 1).appendBytes(json).appendByte((byte) '\n'));
  }
}
