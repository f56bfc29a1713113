package org.parl.wire;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetSocket;
import io.vertx.core.parsetools.RecordParser;
import java.util.function.Consumer;

/**
 * Control messages over TCP as one JSON object per line: readable in a packet capture, easy to
 * speak from any language, and cheap enough for control traffic (the data path uses {@link Frames}).
 * The gateway protocol ({@code org.parl.wire.gateway}) sends typed messages this way; the link
 * between a worker and its job processes still sends plain JSON objects.
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
    RecordParser parser = RecordParser.newDelimited("\n", line -> {
      if (line.length() > 0) {
        onLine.handle(line);
      }
    });
    parser.maxRecordSize(MAX_LINE);
    parser.exceptionHandler(e -> {
      onBad.accept("line longer than " + MAX_LINE + " bytes");
      socket.close();
    });
    socket.handler(parser);
  }

  /**
   * Parses the socket's input into JSON objects. A line that is not a JSON object goes to
   * {@code onBad} with a reason; a line longer than {@link #MAX_LINE} closes the socket.
   */
  public static void read(NetSocket socket, Handler<JsonObject> onMessage, Consumer<String> onBad) {
    readLines(socket, line -> {
      JsonObject msg;
      try {
        msg = new JsonObject(line);
      } catch (DecodeException | ClassCastException e) {
        onBad.accept("not a JSON object: " + abbreviate(line.toString()));
        return;
      }
      onMessage.handle(msg);
    }, onBad);
  }

  public static void write(NetSocket socket, JsonObject msg) {
    socket.write(Buffer.buffer(msg.encode()).appendByte((byte) '\n'));
  }

  /** Writes one line of already encoded JSON (which holds no raw newline). */
  public static void write(NetSocket socket, byte[] json) {
    socket.write(Buffer.buffer(json.length + 1).appendBytes(json).appendByte((byte) '\n'));
  }

  private static String abbreviate(String s) {
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }
}
