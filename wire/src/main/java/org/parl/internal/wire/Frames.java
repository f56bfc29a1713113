package org.parl.internal.wire;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The data path between a client and a job process: length-prefixed binary frames on one TCP
 * connection, many in flight, answered in order and matched by id.
 *
 * <pre>
 *   int32 length (of everything after it) | byte type | int64 id | payload (length - 9 bytes)
 * </pre>
 *
 * Both ends use plain blocking sockets: the job serves its single client on one thread, and a
 * client call is written by the calling thread itself, so a call costs no thread hop on the way
 * out (a hop between threads costs about as much as the rest of a small call).
 *
 * <p>A connection opens with the client's {@link #HELLO}, proven over the nonce the job handed out
 * with its placement, and the job's answer, as described in {@link DataAuth}; until it has succeeded a frame may carry at
 * most {@link #PRE_AUTH_MAX_PAYLOAD} bytes. After it, without TLS, the frames of each direction
 * travel inside authenticated records ({@link FrameKeys}, {@link SealedOutput}).
 */
public final class Frames {

  public static final int HEADER = 13;
  /**
   * Version of this protocol, sent in the HELLO: a client and a job of different versions refuse
   * each other (5: frames sealed after the handshake; 6: the JSON messages are typed,
   * {@link DataMessage}; 7: the client speaks first, over the nonce of the job's placement).
   */
  public static final int PROTOCOL = 7;
  /** Largest payload accepted (1 GiB); a bigger length means a broken or hostile peer. */
  public static final int MAX_PAYLOAD = 1 << 30;
  /** Largest payload accepted from a peer that has not authenticated yet (docs/contract.md §8). */
  public static final int PRE_AUTH_MAX_PAYLOAD = 64 * 1024;

  // client -> job
  public static final byte HELLO = 1;
  public static final byte BLOB = 2;
  public static final byte CREATE = 3;
  public static final byte CALL = 4;
  public static final byte GET = 5;
  public static final byte SET = 6;
  public static final byte CLOSE = 7;
  // job -> client
  public static final byte RESULT = 20;
  public static final byte ERROR = 21;
  /**
   * The first frame of a job of protocol 6 or older, which spoke first with a challenge: a client
   * that reads it tells its user to run one parl version.
   */
  public static final byte CHALLENGE = 22;

  private Frames() {}

  /**
   * One frame as read. {@code payload} may be a reused buffer longer than the frame: only its
   * first {@code length} bytes belong to it.
   */
  public record Frame(byte type, long id, byte[] payload, int length) {}

  /** Reads one frame into a new array; throws {@link EOFException} at a clean end of stream. */
  public static Frame read(DataInputStream in) throws IOException {
    return read(in, null);
  }

  /**
   * Reads one frame into {@code reuse} when it is large enough, else into a new array (a server
   * that handles one frame at a time saves allocating, and collecting, every payload).
   */
  public static Frame read(DataInputStream in, byte[] reuse) throws IOException {
    return read(in, reuse, MAX_PAYLOAD);
  }

  /**
   * Reads one frame whose payload may be at most {@code maxPayload} bytes: the announced length
   * is checked before anything is allocated for it.
   *
   * @throws BadFrameException for a length that is impossible or over {@code maxPayload}
   */
  public static Frame read(DataInputStream in, byte[] reuse, int maxPayload) throws IOException {
    return read(in, reuse, maxPayload, n -> { });
  }

  /** Checks a payload's length before an array is allocated for it; throws to refuse it. */
  @FunctionalInterface
  public interface RoomCheck {
    void check(int length) throws IOException;
  }

  /**
   * Reads one frame into {@code reuse} when it is large enough; else {@code room} may refuse the
   * payload's length, before a new array is allocated for it (the frame's payload is then unread).
   */
  public static Frame read(DataInputStream in, byte[] reuse, RoomCheck room) throws IOException {
    return read(in, reuse, MAX_PAYLOAD, room);
  }

  private static Frame read(DataInputStream in, byte[] reuse, int maxPayload, RoomCheck room) throws IOException {
    int length = in.readInt();
    if (length < 9) {
      throw new BadFrameException("bad frame length " + length);
    }
    if (length - 9 > maxPayload) {
      throw new BadFrameException("a frame of " + (length - 9) + " bytes is over the limit of " + maxPayload + " bytes");
    }
    byte type = in.readByte();
    long id = in.readLong();
    int n = length - 9;
    boolean fits = reuse != null && reuse.length >= n;
    if (!fits) {
      room.check(n);
    }
    byte[] payload = fits ? reuse : new byte[n];
    in.readFully(payload, 0, n);
    return new Frame(type, id, payload, n);
  }

  /**
   * Writes one frame of an already encoded payload (set-up and control frames; calls are built in
   * a {@link FrameBuffer}). Small frames go out in one write (one TCP segment with TCP_NODELAY);
   * large payloads are not copied. Callers serialise access to {@code out}.
   */
  public static void write(OutputStream out, byte type, long id, byte[] payload) throws IOException {
    int length = payload.length;
    if (length > MAX_PAYLOAD) {
      throw new IOException("payload of " + length + " bytes is over the limit of " + MAX_PAYLOAD);
    }
    if (length <= 16 * 1024) {
      byte[] buf = new byte[HEADER + length];
      header(buf, type, id, length);
      System.arraycopy(payload, 0, buf, HEADER, length);
      out.write(buf);
    } else {
      byte[] head = new byte[HEADER];
      header(head, type, id, length);
      out.write(head);
      out.write(payload, 0, length);
    }
    out.flush();
  }

  static void header(byte[] b, byte type, long id, int length) {
    int l = length + 9;
    b[0] = (byte) (l >>> 24);
    b[1] = (byte) (l >>> 16);
    b[2] = (byte) (l >>> 8);
    b[3] = (byte) l;
    b[4] = type;
    for (int i = 0; i < 8; i++) {
      b[5 + i] = (byte) (id >>> (56 - 8 * i));
    }
  }

  /** A payload made of a short UTF-8 name followed by bytes: {@code uint16 length | name | rest}. */
  public static byte[] named(String name, byte[] rest) {
    return named(name.getBytes(StandardCharsets.UTF_8), rest);
  }

  /** {@link #named(String, byte[])} with the name already encoded. */
  public static byte[] named(byte[] n, byte[] rest) {
    if (n.length > 0xFFFF) {
      throw new IllegalArgumentException("name too long: " + n.length + " bytes");
    }
    byte[] out = new byte[2 + n.length + rest.length];
    out[0] = (byte) (n.length >>> 8);
    out[1] = (byte) n.length;
    System.arraycopy(n, 0, out, 2, n.length);
    System.arraycopy(rest, 0, out, 2 + n.length, rest.length);
    return out;
  }

  /** The name of a {@link #named} payload of {@code length} bytes. */
  public static String name(byte[] payload, int length) throws IOException {
    int n = nameLength(payload, length);
    return new String(payload, 2, n, StandardCharsets.UTF_8);
  }

  /** Where the bytes after the name of a {@link #named} payload start. */
  public static int restOffset(byte[] payload, int length) throws IOException {
    return 2 + nameLength(payload, length);
  }

  private static int nameLength(byte[] payload, int length) throws IOException {
    if (length < 2) {
      throw new IOException("payload too short for a name");
    }
    int n = ((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF);
    if (2 + n > length) {
      throw new IOException("name length " + n + " runs past the payload");
    }
    return n;
  }
}
