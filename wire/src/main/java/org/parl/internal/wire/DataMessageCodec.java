package org.parl.internal.wire;

import java.util.List;
import java.util.Map;
import org.parl.internal.security.SharedSecret;

/**
 * Encodes and decodes the JSON messages of the data connection ({@link DataMessage}), with every
 * check of the records; see {@link TypedJson}. Both ends use it: the client, and the job process
 * on plain sockets (so it takes and gives bytes, without Vert.x, which a job process does not load).
 */
public final class DataMessageCodec {

  private static final TypedJson JSON = new TypedJson(DataMessage.class);

  private DataMessageCodec() {}

  /**
   * Prepares every message type (see {@link TypedJson#warmUp()}), then encodes and decodes one of
   * each: that loads the classes of the whole path, parsing and checks included, which preparing
   * alone leaves to the first message (tens of milliseconds in a fresh JVM). Blocks for a while in a
   * fresh JVM, which a client's or a job's first actor should not pay for.
   */
  public static void warmUp() {
    JSON.warmUp();
    String hex = "00".repeat(SharedSecret.BYTES);
    List<String> hashes = List.of("0".repeat(64));
    byte[] hello = encode(new DataMessage.Hello(Frames.PROTOCOL, hex, hex, "warm-up", hashes, new DataMessage.Offer("/", 1)));
    hello(hello, hello.length);
    byte[] welcome = encode(new DataMessage.Welcome("warm-up", 1, hashes, hex, true));
    welcome(welcome, welcome.length);
    byte[] create = encode(new DataMessage.Create("A", "B", "()", hashes, List.of(new DataMessage.ShippedFile("f", hashes.get(0)))));
    create(create, 0, create.length);
    byte[] failure = encode(new DataMessage.Failure(ErrorKind.REMOTE, "warm-up", "E", "warm-up",
        List.of(new DataMessage.StackFrame("C", "m", "C.java", 1))));
    failure(failure, failure.length);
  }

  /** A message as UTF-8 JSON, as it goes in a frame. */
  public static byte[] encode(DataMessage message) {
    return JSON.encode(message);
  }

  /**
   * Decodes the HELLO of a client. Its protocol version is checked first, so that a client of
   * another version is told so whatever else its HELLO holds.
   *
   * @throws BadMessageException saying what is wrong with it: another protocol, or a malformed HELLO
   */
  public static DataMessage.Hello hello(byte[] payload, int length) {
    Map<String, Object> tree = JSON.tree(payload, 0, length);
    Object protocol = tree.get("protocol");
    if (!(protocol instanceof Long version) || version != Frames.PROTOCOL) {
      String theirs = tree.containsKey("protocol") ? TypedJson.text(protocol) : "none";
      throw new BadMessageException("this job speaks parl protocol " + Frames.PROTOCOL + " and the client "
          + (theirs.length() > 20 ? theirs.substring(0, 20) + "..." : theirs) + ": use the same parl version on clients and workers");
    }
    try {
      return JSON.decode(tree, DataMessage.Hello.class);
    } catch (BadMessageException e) {
      throw new BadMessageException("malformed HELLO: " + e.getMessage());
    }
  }

  /**
   * Decodes a job's answer to a HELLO.
   *
   * @throws BadMessageException saying what is wrong with it
   */
  public static DataMessage.Welcome welcome(byte[] payload, int length) {
    return JSON.decode(payload, 0, length, DataMessage.Welcome.class);
  }

  /**
   * Decodes the JSON header of a CREATE frame, {@code length} bytes from {@code offset}.
   *
   * @throws BadMessageException saying what is wrong with it
   */
  public static DataMessage.Create create(byte[] payload, int offset, int length) {
    return JSON.decode(payload, offset, length, DataMessage.Create.class);
  }

  /**
   * Decodes the body of an ERROR frame.
   *
   * @throws BadMessageException saying what is wrong with it
   */
  public static DataMessage.Failure failure(byte[] payload, int length) {
    return JSON.decode(payload, 0, length, DataMessage.Failure.class);
  }
}
