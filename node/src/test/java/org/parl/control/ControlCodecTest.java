package org.parl.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.gateway.Job;

class ControlCodecTest {

  private final ControlCodec codec = new ControlCodec();

  /** Encodes behind some bytes, as a clustered message puts its headers first, and decodes back. */
  private ControlMessage roundTrip(ControlMessage m) {
    Buffer wire = Buffer.buffer("header");
    codec.encodeToWire(wire, m);
    return codec.decodeFromWire(6, wire);
  }

  private ControlMessage decode(String json) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    return codec.decodeFromWire(0, Buffer.buffer().appendInt(bytes.length).appendBytes(bytes));
  }

  private String rejection(String json) {
    return assertThrows(BadMessageException.class, () -> decode(json), json).getMessage();
  }

  @Test
  void everyMessageTypeSurvivesTheWire() {
    Set<String> covered = new TreeSet<>();
    for (ControlMessage m : Samples.all()) {
      assertEquals(m, roundTrip(m));
      assertSame(m, codec.transform(m), "a local message is handed over as is");
      covered.add(m.getClass().getSimpleName());
    }
    Set<String> all = new TreeSet<>();
    ControlCodec.typeNames().forEach(all::add);
    assertEquals(all, covered, "Samples.all() has one instance of every message type");
  }

  @Test
  void messagesAreJsonNamedByTheirType() {
    JsonObject allocate = ControlCodec.toJson(Samples.all().get(2));
    assertEquals("Allocate", allocate.getString("type"));
    assertEquals("Create", allocate.getJsonObject("create").getString("type"), "the client's request, named as it sent it");
    assertEquals(30_000, allocate.getJsonObject("create").getInteger("timeoutMs"));
    JsonObject worker = ControlCodec.toJson(Samples.WORKER);
    assertEquals(List.of(0, 1), worker.getJsonArray("worker_vacant_gpus").getList());
    assertEquals(List.of(2, 3), worker.getJsonArray("worker_used_gpus").getList());
    assertEquals(new JsonObject().put("total", 0).put("used", 0).put("vacant", 0), worker.getJsonObject("cpus"));
    assertEquals(Set.of("id", "nodeId", "hostname", "address", "cpus", "hostCpus", "worker_vacant_gpus", "worker_used_gpus",
        "worker_out_of_service_gpus", "gpuShares", "drained", "gpuDevices", "jobs"), worker.fieldNames());
    JsonObject snapshot = ControlCodec.toJson(Samples.all().stream()
        .filter(m -> m instanceof ControlReply.Snapshot).findFirst().orElseThrow());
    assertEquals("gpu", snapshot.getString("clusterType"));
  }

  @Test
  void absentOptionalFieldsTakeTheirDefaults() {
    assertEquals(new WorkerRequest.ReadLog("job-1", WorkerRequest.DEFAULT_LOG_LINES), decode("{\"type\":\"ReadLog\",\"jobId\":\"job-1\"}"));
    assertEquals(new JobCenterRequest.EndJob("job-1", "w-a", "ended", false),
        decode("{\"type\":\"EndJob\",\"jobId\":\"job-1\",\"workerId\":\"w-a\"}"));
    assertEquals(new JobCenterRequest.Allocate("c", 0, 1, 0, 10, "?", "?"), decode("{\"type\":\"Allocate\",\"clientId\":\"c\","
        + "\"create\":{\"type\":\"Create\",\"id\":0,\"resources\":{\"gpus\":1},\"timeoutMs\":10},\"unknown\":[1]}"));
  }

  @Test
  void badMessagesAreRefusedWithTheReason() {
    String allocate = "{\"type\":\"Allocate\",\"clientId\":\"x\",\"create\":{\"type\":\"Create\",\"id\":1,\"timeoutMs\":10";
    String asking = allocate + ",\"resources\":{";
    String create = ",\"create\":{\"type\":\"Create\",\"id\":1,\"resources\":{\"gpus\":1},\"timeoutMs\":10}}";
    List<String[]> cases = List.of(
        new String[] {"not json", "not valid JSON"},
        new String[] {"[1,2]", "expected a JSON object"},
        new String[] {"\"text\"", "expected a JSON object"},
        new String[] {"null", "expected a JSON object"},
        new String[] {"{}", "needs a \"type\" field"},
        new String[] {"{\"type\":\"Fly\"}", "unknown message type \"Fly\""},
        new String[] {"{\"type\":5}", "unknown message type \"5\""},
        new String[] {"{\"type\":\"ControlMessage\"}", "unknown message type"},
        new String[] {"{\"type\":\"Allocate\",\"clientId\":\"x\"}", "field 'create' is missing"},
        new String[] {"{\"type\":\"Allocate\"" + create, "field 'clientId' must be a non-empty string"},
        new String[] {"{\"type\":\"Allocate\",\"clientId\":5" + create, "field 'clientId' must be a string"},
        new String[] {"{\"type\":\"Allocate\",\"clientId\":\" \"" + create, "field 'clientId' must be a non-empty"},
        new String[] {"{\"type\":\"Allocate\",\"clientId\":\"" + "x".repeat(1025) + "\"" + create, "at most 1024"},
        new String[] {"{\"type\":\"Allocate\",\"clientId\":\"x\",\"create\":{\"type\":\"Create\",\"id\":1}}",
            "field 'create.timeoutMs' is missing"},
        new String[] {"{\"type\":\"Allocate\",\"clientId\":\"x\",\"create\":{\"id\":1,\"timeoutMs\":10}}",
            "field 'create' needs a \"type\" field naming its kind, one of [Create]"},
        new String[] {"{\"type\":\"Allocate\",\"clientId\":\"x\",\"create\":{\"type\":\"Kill\",\"id\":1,\"jobId\":\"j\"}}",
            "unknown message type \"Kill\" in field 'create'; known types are [Create]"},
        new String[] {asking + "\"gpus\":\"two\"}}}", "field 'create.resources.gpus' must be an integer"},
        new String[] {asking + "\"gpus\":\"2\"}}}", "field 'create.resources.gpus' must be an integer"},
        new String[] {asking + "\"gpus\":1.5}}}", "field 'create.resources.gpus' must be an integer, got Double"},
        new String[] {asking + "\"gpus\":true}}}", "field 'create.resources.gpus' must be an integer"},
        new String[] {asking + "\"gpus\":99999999999}}}", "field 'create.resources.gpus' is out of range"},
        new String[] {asking + "\"gpus\":2000000}}}",
            "field 'create.resources': a request names at most 1048576 CPUs and as many GPUs (cpus=0, gpus=2000000)"},
        new String[] {allocate.replace("\"timeoutMs\":10", "\"timeoutMs\":-5") + "}}", "field 'timeoutMs' must be between 0 and"},
        new String[] {"{\"type\":\"Allocate\",\"clientId\":\"x\",\"create\":{\"type\":\"Create\",\"id\":1,\"timeoutMs\":null}}",
            "field 'create.timeoutMs' must not be null"},
        new String[] {asking + "\"cpus\":1,\"cpus\":2}}}", "Duplicate field 'cpus'"},
        new String[] {allocate + "}} {}", "found more after it"},
        new String[] {allocate, "not valid JSON: Unexpected end-of-input: expected close marker for Object"},
        new String[] {"{\"type\":\"EndJob\",\"jobId\":42}", "field 'jobId' must be a string"},
        new String[] {"{\"type\":\"EndJob\",\"jobId\":\"j\",\"lost\":1}", "field 'lost' must be true or false"},
        new String[] {"{\"type\":\"EndJob\",\"jobId\":\"j\"}", "field 'workerId' must be a non-empty string"},
        new String[] {"{\"type\":\"RegisterWorker\",\"workerId\":\"w\"}", "field 'cpus' is missing"},
        new String[] {register("[0,0]"), "field 'gpus' lists 0 twice"},
        new String[] {register("[0]").replace(",\"fenceMs\":8000", ""), "field 'fenceMs' is missing"},
        new String[] {register("[0]").replace("8000", "-1"), "field 'fenceMs' must be between 0 and 600000"},
        new String[] {register("[0]").replace("8000", "86400000"), "field 'fenceMs' must be between 0 and 600000"},
        new String[] {register("[-1]"), "field 'gpus' must hold integers between 0 and"},
        new String[] {register("[null]"), "field 'gpus' holds a null entry"},
        new String[] {register("[\"0\"]"), "field 'gpus[0]' must be an integer"},
        new String[] {register("3"), "field 'gpus' must be an array"},
        new String[] {register("[" + "1,".repeat(1100) + "0]"), "at most 1024 allowed"},
        new String[] {"{\"type\":\"Launch\",\"job\":{\"jobId\":\"j\"}}", "field 'clientId'"},
        new String[] {"{\"type\":\"ReadLog\",\"jobId\":\"j\",\"lines\":0}", "field 'lines' must be between 1 and"},
        new String[] {"{\"type\":\"Registered\",\"clusterType\":\"tpu\"}", "clusterType must be \"cpu\", \"gpu\" or \"mixed\""},
        new String[] {"{\"type\":\"GetQueue\",\"x\":" + "[".repeat(100) + "]".repeat(100) + "}", "not valid JSON"});
    for (String[] c : cases) {
      String why = rejection(c[0]);
      assertTrue(why.contains(c[1]), c[0].substring(0, Math.min(80, c[0].length())) + " was refused with: " + why);
      assertFalse(why.contains("Source") || why.contains("org.parl"), "no parser internals: " + why);
    }
  }

  private static String register(String gpus) {
    return "{\"type\":\"RegisterWorker\",\"workerId\":\"w\",\"nodeId\":\"n\",\"hostname\":\"h\",\"host\":\"127.0.0.1\","
        + "\"cpus\":2,\"hostCpus\":2,\"fenceMs\":8000,\"gpus\":" + gpus + "}";
  }

  @Test
  void framesOfImpossibleLengthAreRefused() {
    assertThrows(BadMessageException.class, () -> codec.decodeFromWire(0, Buffer.buffer(new byte[] {0, 0})));
    assertThrows(BadMessageException.class, () -> codec.decodeFromWire(0, Buffer.buffer().appendInt(-1)));
    assertThrows(BadMessageException.class, () -> codec.decodeFromWire(0, Buffer.buffer().appendInt(100).appendString("{}")));
    assertThrows(BadMessageException.class,
        () -> codec.decodeFromWire(0, Buffer.buffer().appendInt(ControlCodec.MAX_BODY + 1)));
  }

  @Test
  void recordsCannotBeBuiltInvalid() {
    assertThrows(BadMessageException.class, () -> new JobCenterRequest.Allocate(null, 0, 1, 0, 10, "A", "?"));
    assertThrows(BadMessageException.class, () -> new Job("j", "c", "w", "A", 0, List.of(1, 1), 0, 0));
  }
}
