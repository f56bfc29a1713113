package org.parl.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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

/** The messages of the worker-job control link survive the wire, and a bad line is refused with a reason. */
class JobControlCodecTest {

  private static final String N = "ab".repeat(32);
  private static final String P = "0f".repeat(32);
  private static final String UUID = "GPU-fa4e0000-0000-0000-0000-000000000000";

  private static final List<JobControl.ToJob> TO_JOB = List.of(
      new JobControl.Challenge(N),
      new JobControl.Welcome(P),
      new JobControl.Assign("job-1", "c-1"),
      new JobControl.Ping(),
      new JobControl.Stop(),
      new JobControl.Renew("plain"),
      new JobControl.Renew("tls a2V5 Y2VydA=="));

  private static final List<JobControl.ToWorker> TO_WORKER = List.of(
      new JobControl.Hello("w1-1", N, P),
      new JobControl.Ready("w1-1", 4321, 40_000, N, N),
      new JobControl.Pong(12),
      new JobControl.Exiting(),
      new JobControl.Stopping("no room for a 2 GB payload"),
      new JobControl.Stopping(null),
      new JobControl.GpuMismatch(List.of(UUID), List.of()),
      new JobControl.Released(7),
      new JobControl.NotReused("the actor left thread(s) running: t1"));

  private static byte[] line(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void everyMessageSurvivesTheWire() {
    Set<String> covered = new TreeSet<>();
    for (JobControl.ToJob m : TO_JOB) {
      assertEquals(m, JobControlCodec.toJob(JobControlCodec.encode(m)));
      covered.add(m.getClass().getSimpleName());
    }
    for (JobControl.ToWorker m : TO_WORKER) {
      assertEquals(m, JobControlCodec.toWorker(JobControlCodec.encode(m)));
      covered.add(m.getClass().getSimpleName());
    }
    Set<String> all = new TreeSet<>();
    for (Class<?> direction : JobControl.class.getPermittedSubclasses()) {
      for (Class<?> type : direction.getPermittedSubclasses()) {
        all.add(type.getSimpleName());
      }
    }
    assertEquals(14, all.size(), "every message type: " + all);
    assertEquals(all, covered, "one instance of every message type");
  }

  @Test
  void linesAreOneJsonObjectNamedByType() {
    byte[] ready = JobControlCodec.encode(new JobControl.Ready("w1-1", 4321, 40_000, N, N));
    for (byte b : ready) {
      assertTrue(b != '\n', "a line holds no newline");
    }
    JsonObject json = new JsonObject(new String(ready, StandardCharsets.UTF_8));
    assertEquals("Ready", json.getString("type"));
    assertEquals(4321, json.getLong("pid"));
    assertEquals("{\"type\":\"Ping\"}", new String(JobControlCodec.encode(new JobControl.Ping()), StandardCharsets.UTF_8));
  }

  @Test
  void secretsStayOutOfLogLines() {
    assertFalse(new JobControl.Ready("w1-1", 4321, 40_000, N, N).toString().contains(N));
    assertEquals("Renew[tls]", new JobControl.Renew("tls a2V5 Y2VydA==").toString());
    assertEquals("Renew[plain]", new JobControl.Renew("plain").toString());
  }

  @Test
  void badLinesToTheJobAreRefusedWithTheReason() {
    refused(JobControlCodec::toJob, List.of(
        new String[] {"not json", "not valid JSON"},
        new String[] {"[1,2]", "expected a JSON object"},
        new String[] {"{\"op\":\"ping\"}",
            "needs a \"type\" field naming its kind, one of [Assign, Challenge, Ping, Renew, Stop, Welcome]"},
        new String[] {"{\"type\":\"Bogus\"}", "unknown message type \"Bogus\"; known types are [Assign,"},
        new String[] {"{\"type\":\"Pong\",\"calls\":1}", "unknown message type \"Pong\""},
        new String[] {"{\"type\":\"Challenge\"}", "field 'nonce' must be 32 bytes as 64 hex digits"},
        new String[] {"{\"type\":\"Challenge\",\"nonce\":\"ab\"}", "field 'nonce' must be 32 bytes as 64 hex digits"},
        new String[] {"{\"type\":\"Challenge\",\"nonce\":\"" + "zz".repeat(32) + "\"}", "field 'nonce' must be 32 bytes"},
        new String[] {"{\"type\":\"Welcome\",\"proof\":7}", "field 'proof' must be a string"},
        new String[] {"{\"type\":\"Assign\",\"clientId\":\"c-1\"}", "field 'jobId' must be a non-empty string"},
        new String[] {"{\"type\":\"Assign\",\"jobId\":\"j\",\"clientId\":\"" + "c".repeat(1025) + "\"}",
            "field 'clientId' must be a non-empty string of at most 1024 characters"},
        new String[] {"{\"type\":\"Renew\"}", "field 'dataLine' is missing"},
        new String[] {"{\"type\":\"Renew\",\"dataLine\":\"" + "x".repeat(JobControl.MAX_DATA_LINE + 1) + "\"}",
            "field 'dataLine' has 16385 characters, at most 16384 allowed"},
        new String[] {"{\"type\":\"Ping\"} {\"type\":\"Stop\"}", "expected one JSON object, found more after it"}));
  }

  @Test
  void badLinesToTheWorkerAreRefusedWithTheReason() {
    String tooLong = String.join("", Collections.nCopies(Checks.MAX_TEXT + 1, "x"));
    refused(JobControlCodec::toWorker, List.of(
        new String[] {"{\"type\":\"Ping\"}", "unknown message type \"Ping\"; known types are [Exiting, GpuMismatch, Hello,"},
        new String[] {"{\"type\":\"Hello\",\"slot\":\"w1-1\",\"nonce\":\"" + N + "\"}", "field 'proof' must be 32 bytes"},
        new String[] {"{\"type\":\"Hello\",\"nonce\":\"" + N + "\",\"proof\":\"" + P + "\"}", "field 'slot' must be a non-empty string"},
        new String[] {"{\"type\":\"Ready\",\"slot\":\"s\",\"port\":1,\"token\":\"" + N + "\"}", "field 'pid' is missing"},
        new String[] {"{\"type\":\"Ready\",\"slot\":\"s\",\"pid\":null,\"port\":1,\"token\":\"" + N + "\"}",
            "field 'pid' must not be null"},
        new String[] {"{\"type\":\"Ready\",\"slot\":\"s\",\"pid\":\"5\",\"port\":1,\"token\":\"" + N + "\"}",
            "field 'pid' must be an integer"},
        new String[] {"{\"type\":\"Ready\",\"slot\":\"s\",\"pid\":5,\"port\":1.5,\"token\":\"" + N + "\"}",
            "field 'port' must be an integer"},
        new String[] {"{\"type\":\"Ready\",\"slot\":\"s\",\"pid\":5,\"port\":70000,\"token\":\"" + N + "\"}",
            "field 'port' must be between 1 and 65535, got 70000"},
        new String[] {"{\"type\":\"Ready\",\"slot\":\"s\",\"pid\":5,\"port\":1,\"token\":\"" + N + "\",\"port\":2}", "not valid JSON"},
        new String[] {"{\"type\":\"Ready\",\"slot\":\"s\",\"pid\":5,\"port\":1,\"token\":\"secret\"}",
            "field 'token' must be 32 bytes as 64 hex digits"},
        new String[] {"{\"type\":\"Pong\"}", "field 'calls' is missing"},
        new String[] {"{\"type\":\"Pong\",\"calls\":-1}", "field 'calls' must be between 0 and"},
        new String[] {"{\"type\":\"Pong\",\"calls\":99999999999999999999}", "field 'calls' is out of range"},
        new String[] {"{\"type\":\"Released\",\"calls\":true}", "field 'calls' must be an integer"},
        new String[] {"{\"type\":\"Stopping\",\"cause\":\"" + tooLong + "\"}", "field 'cause' has 65537 characters, at most 65536 allowed"},
        new String[] {"{\"type\":\"NotReused\"}", "field 'why' is missing"},
        new String[] {"{\"type\":\"GpuMismatch\",\"expected\":[\"" + UUID + "\"]}", "field 'seen' is missing"},
        new String[] {"{\"type\":\"GpuMismatch\",\"expected\":[1],\"seen\":[]}", "field 'expected[0]' must be a string"},
        new String[] {"{\"type\":\"GpuMismatch\",\"expected\":[\"\"],\"seen\":[]}", "field 'expected' must be a non-empty string"}));
  }

  @Test
  void aLineThatIsNotJsonIsToldFromAMessageOfAnotherKind() {
    assertTrue(JobControlCodec.isObject(line("{\"type\":\"Bogus\"}")));
    assertTrue(JobControlCodec.isObject(line("{\"type\":\"Pong\",\"calls\":\"x\"}")));
    assertFalse(JobControlCodec.isObject(line("not json")));
    assertFalse(JobControlCodec.isObject(line("[1]")));
    assertFalse(JobControlCodec.isObject(line("{\"type\":")));
  }

  private static void refused(Function<byte[], ?> decode, List<String[]> cases) {
    for (String[] c : cases) {
      BadMessageException e = assertThrows(BadMessageException.class, () -> decode.apply(line(c[0])), c[0]);
      assertTrue(e.getMessage().contains(c[1]), abbreviate(c[0]) + " was refused with: " + e.getMessage());
    }
  }

  private static String abbreviate(String s) {
    return s.length() > 200 ? s.substring(0, 200) + "..." : s;
  }
}
