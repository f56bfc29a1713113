package org.parl.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The JSON messages of the data connection survive the wire, and a bad one is refused with a reason. */
class DataMessageCodecTest {

  private static final String N = "ab".repeat(32);
  private static final String P = "0f".repeat(32);
  private static final String H = "c".repeat(64);

  private static final DataMessage.Hello HELLO = new DataMessage.Hello(Frames.PROTOCOL, N, P, "c-1", List.of(H),
      new DataMessage.Offer("/dev/shm/parl-1", 1 << 20));
  private static final DataMessage.Welcome WELCOME = new DataMessage.Welcome("job-1", 4321, List.of(H), P, true);
  private static final DataMessage.Create CREATE = new DataMessage.Create("com.x.Api", "com.x.Impl", "(int,java.lang.String)",
      List.of(H), List.of(new DataMessage.ShippedFile("conf/a.bin", H)));
  private static final List<DataMessage.StackFrame> STACK = List.of(
      new DataMessage.StackFrame("com.x.Counter", "add", "Counter.java", 12),
      new DataMessage.StackFrame("com.x.Native", "run", null, -2));
  private static final DataMessage.Failure REMOTE = new DataMessage.Failure(ErrorKind.REMOTE, "Counter.add(int) threw",
      "java.lang.IllegalStateException", "boom", STACK);

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static <T> T roundTrip(DataMessage m, Function<byte[], T> decode) {
    return decode.apply(DataMessageCodec.encode(m));
  }

  @Test
  void everyMessageSurvivesTheWire() {
    Set<String> covered = new TreeSet<>();
    for (DataMessage.Hello m : List.of(HELLO, new DataMessage.Hello(Frames.PROTOCOL, N, P, "c-1", List.of(), null))) {
      assertEquals(m, roundTrip(m, b -> DataMessageCodec.hello(b, b.length)));
      covered.add("Hello");
    }
    for (DataMessage.Welcome m : List.of(WELCOME, new DataMessage.Welcome("job-1", 1, List.of(), P, null))) {
      assertEquals(m, roundTrip(m, b -> DataMessageCodec.welcome(b, b.length)));
      covered.add("Welcome");
    }
    for (DataMessage.Create m : List.of(CREATE, new DataMessage.Create("A", "B", "()", List.of(), List.of()))) {
      assertEquals(m, roundTrip(m, b -> DataMessageCodec.create(b, 0, b.length)));
      covered.add("Create");
    }
    for (DataMessage.Failure m : List.of(REMOTE, new DataMessage.Failure(ErrorKind.INVALID, "why"),
        new DataMessage.Failure(ErrorKind.INTERNAL, null))) {
      assertEquals(m, roundTrip(m, b -> DataMessageCodec.failure(b, b.length)));
      covered.add("Failure");
    }
    Set<String> all = new TreeSet<>();
    for (Class<?> direction : DataMessage.class.getPermittedSubclasses()) {
      for (Class<?> type : direction.getPermittedSubclasses()) {
        all.add(type.getSimpleName());
      }
    }
    assertEquals(all, covered, "one instance of every message type");
  }

  @Test
  void messagesAreJsonObjectsNamedByType() {
    JsonObject hello = new JsonObject(new String(DataMessageCodec.encode(HELLO), StandardCharsets.UTF_8));
    assertEquals("Hello", hello.getString("type"));
    assertEquals(Frames.PROTOCOL, hello.getInteger("protocol"));
    assertEquals(1 << 20, hello.getJsonObject("shm").getInteger("size"));
    JsonObject error = new JsonObject(new String(DataMessageCodec.encode(REMOTE), StandardCharsets.UTF_8));
    assertEquals("REMOTE", error.getString("kind"), "a kind travels as its name");
    assertEquals("com.x.Counter", error.getJsonArray("stack").getJsonObject(0).getString("class"));
    assertFalse(error.getJsonArray("stack").getJsonObject(1).containsKey("file"), "absent values are left out");
    assertFalse(new String(DataMessageCodec.encode(new DataMessage.Welcome("j", 1, List.of(), P, null)),
        StandardCharsets.UTF_8).contains("shm"), "no offer, no answer to it");
  }

  @Test
  void aHelloOfAnotherProtocolIsToldSoWhateverElseItHolds() {
    for (String old : List.of("{\"protocol\":2,\"token\":\"x\"}", "{\"token\":\"x\"}", "{\"type\":\"Hello\",\"protocol\":\"6\"}")) {
      BadMessageException e = assertThrows(BadMessageException.class, () -> DataMessageCodec.hello(bytes(old), old.length()));
      assertTrue(e.getMessage().startsWith("this job speaks parl protocol " + Frames.PROTOCOL + " and the client "), e.getMessage());
      assertTrue(e.getMessage().endsWith(": use the same parl version on clients and workers"), e.getMessage());
    }
  }

  @Test
  void badHellosAreRefusedWithTheReason() {
    String v = "{\"type\":\"Hello\",\"protocol\":" + Frames.PROTOCOL;
    String ok = v + ",\"nonce\":\"" + N + "\",\"proof\":\"" + P + "\",\"clientId\":\"c\"";
    refused(b -> DataMessageCodec.hello(b, b.length), List.of(
        new String[] {"not json", "not valid JSON"},
        new String[] {v + ",\"nonce\":\"" + N + "\",\"clientId\":\"c\"}", "malformed HELLO: field 'proof' must be 32 bytes"},
        new String[] {v + ",\"nonce\":\"ab\",\"proof\":\"" + P + "\",\"clientId\":\"c\"}", "field 'nonce' must be 32 bytes"},
        new String[] {v + ",\"nonce\":\"" + N + "\",\"proof\":\"" + P + "\"}", "field 'clientId' must be a non-empty string"},
        new String[] {ok + ",\"blobs\":\"x\"}", "field 'blobs' must be an array"},
        new String[] {ok + ",\"blobs\":[1]}", "field 'blobs[0]' must be a string"},
        new String[] {ok + ",\"blobs\":" + strings(DataMessage.MAX_LISTED + 1) + "}", "field 'blobs' has 801 entries, at most 800"},
        new String[] {ok + ",\"shm\":{\"file\":\"/f\"}}", "field 'shm.size' is missing"},
        new String[] {ok + ",\"shm\":{\"file\":\"/f\",\"size\":0}}", "field 'size' must be between 1 and"},
        new String[] {ok + ",\"shm\":{\"size\":5}}", "field 'file' is missing"},
        new String[] {ok + ",\"shm\":7}", "field 'shm' must be an object"},
        new String[] {"{\"type\":\"Create\",\"protocol\":" + Frames.PROTOCOL + "}",
            "unknown message type \"Create\"; known types are [Hello]"},
        new String[] {"{\"protocol\":" + Frames.PROTOCOL + "}", "needs a \"type\" field naming its kind, one of [Hello]"}));
  }

  @Test
  void badWelcomesAreRefusedWithTheReason() {
    refused(b -> DataMessageCodec.welcome(b, b.length), List.of(
        new String[] {"{\"type\":\"Welcome\",\"jobId\":\"j\",\"pid\":1,\"missing\":[]}", "field 'proof' must be 32 bytes"},
        new String[] {"{\"type\":\"Welcome\",\"jobId\":\"j\",\"missing\":[],\"proof\":\"" + P + "\"}", "field 'pid' is missing"},
        new String[] {"{\"type\":\"Welcome\",\"jobId\":\"j\",\"pid\":1,\"proof\":\"" + P + "\",\"shm\":\"yes\"}",
            "field 'shm' must be true or false"},
        new String[] {"{\"type\":\"Failure\",\"kind\":\"INVALID\"}", "unknown message type \"Failure\"; known types are [Welcome]"}));
  }

  @Test
  void badCreateHeadersAreRefusedWithTheReason() {
    String ok = "{\"type\":\"Create\",\"api\":\"A\",\"impl\":\"B\",\"ctor\":\"()\"";
    refused(b -> DataMessageCodec.create(b, 0, b.length), List.of(
        new String[] {"{\"type\":\"Create\",\"impl\":\"B\",\"ctor\":\"()\",\"code\":[]}", "field 'api' must be a non-empty string"},
        new String[] {"{\"type\":\"Create\",\"api\":\"\",\"impl\":\"B\",\"ctor\":\"()\",\"code\":[]}", "field 'api' must be a non-empty"},
        new String[] {ok + "}", "field 'code' is missing"},
        new String[] {ok + ",\"code\":[7]}", "field 'code[0]' must be a string"},
        new String[] {ok + ",\"code\":" + strings(DataMessage.MAX_SHIPPED + 1) + "}", "field 'code' has 4097 entries, at most 4096"},
        new String[] {ok + ",\"code\":[],\"files\":\"x\"}", "field 'files' must be an array"},
        new String[] {ok + ",\"code\":[],\"files\":[{\"name\":\"a\"}]}", "field 'hash' must be a non-empty string"},
        new String[] {ok + ",\"code\":[],\"files\":[{\"hash\":\"" + H + "\"}]}", "field 'name' is missing"},
        new String[] {ok + ",\"code\":[],\"files\":[null]}", "field 'files' holds a null entry"},
        new String[] {ok + ",\"impl\":\"C\",\"code\":[]}", "not valid JSON"}));
  }

  @Test
  void badFailuresAreRefusedWithTheReason() {
    String tooLong = String.join("", Collections.nCopies(Checks.MAX_TEXT + 1, "x"));
    refused(b -> DataMessageCodec.failure(b, b.length), List.of(
        new String[] {"{\"type\":\"Failure\",\"message\":\"why\"}", "field 'kind' is missing"},
        new String[] {"{\"type\":\"Failure\",\"kind\":\"NOPE\"}", "field 'kind' must be one of [INVALID, UNAUTHENTICATED,"},
        new String[] {"{\"type\":\"Failure\",\"kind\":420}", "field 'kind' must be one of"},
        new String[] {"{\"type\":\"Failure\",\"kind\":\"INVALID\",\"message\":\"" + tooLong + "\"}",
            "field 'message' has 65537 characters, at most 65536 allowed"},
        new String[] {"{\"type\":\"Failure\",\"kind\":\"REMOTE\",\"stack\":[{\"class\":\"C\",\"method\":\"m\"}]}",
            "field 'stack[0].line' is missing"},
        new String[] {"{\"type\":\"Failure\",\"kind\":\"REMOTE\",\"stack\":[{\"method\":\"m\",\"line\":1}]}", "field 'class' is missing"},
        new String[] {"{\"type\":\"Failure\",\"kind\":\"REMOTE\",\"stack\":" + frames(DataMessage.MAX_STACK + 1) + "}",
            "field 'stack' has 1025 entries, at most 1024 allowed"},
        new String[] {"{\"kind\":\"INVALID\",\"message\":\"why\"}", "needs a \"type\" field naming its kind, one of [Failure]"}));
  }

  @Test
  void unknownFieldsAreIgnoredAndAbsentOnesTakeTheirDefault() {
    byte[] lost = bytes("{\"type\":\"Failure\",\"kind\":\"LOST\",\"later\":1}");
    DataMessage.Failure f = DataMessageCodec.failure(lost, lost.length);
    assertEquals(new DataMessage.Failure(ErrorKind.LOST, null), f);
    assertEquals(List.of(), f.stack());
    String header = "{\"type\":\"Create\",\"api\":\"A\",\"impl\":\"B\",\"ctor\":\"()\",\"code\":[]}";
    DataMessage.Create c = DataMessageCodec.create(bytes("x" + header + "y"), 1, header.length());
    assertEquals(List.of(), c.files(), "no files, read from the middle of a payload");
    byte[] welcome = bytes("{\"type\":\"Welcome\",\"jobId\":\"j\",\"pid\":1,\"proof\":\"" + P + "\"}");
    assertNull(DataMessageCodec.welcome(welcome, welcome.length).shm());
  }

  private static String strings(int n) {
    return "[" + String.join(",", Collections.nCopies(n, "\"" + H + "\"")) + "]";
  }

  private static String frames(int n) {
    return "[" + String.join(",", Collections.nCopies(n, "{\"class\":\"C\",\"method\":\"m\",\"line\":1}")) + "]";
  }

  private static void refused(Function<byte[], ?> decode, List<String[]> cases) {
    for (String[] c : cases) {
      BadMessageException e = assertThrows(BadMessageException.class, () -> decode.apply(bytes(c[0])), abbreviate(c[0]));
      assertTrue(e.getMessage().contains(c[1]), abbreviate(c[0]) + " was refused with: " + e.getMessage());
    }
  }

  private static String abbreviate(String s) {
    return s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }
}
