package org.parl.internal.wire.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.parl.PlacementStrategy;
import org.parl.internal.resources.GroupRequest;
import org.parl.internal.resources.ResourceRequest;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.ErrorKind;

class GatewayCodecTest {

  private static final ClusterDescription CLUSTER =
      new ClusterDescription("127.0.0.1:8010", "parl-abc", "127.0.0.1:5701", "gpu", 8, "http://127.0.0.1:8110/", true,
          "0b7e1c2a-5d1f-4e8a-9c3b-2f6d8e4a1b70");
  private static final JobPlacement JOB = new JobPlacement(new Job("job-1", "c-1", "w-1", "my.Actor", 0, List.of(0, 2), 1000, 0, 0, 1L),
      "127.0.0.1", 40_000, "tok", "ab".repeat(32), 99, "slot-1");
  private static final WorkerState WORKER = new WorkerState("w-1", "n-1", "host", "127.0.0.1", new WorkerState.Cpus(4, 1, 3),
      4, List.of(), List.of(0), List.of(), List.of(new WorkerState.GpuShare(0, 250, 1024, 16384, false, false, null)), false,
      List.of(new WorkerState.GpuCard(0, "GPU-0", "T4", 1, 0, 0)), List.of("job-1"));

  private static final List<GatewayRequest> REQUESTS = List.of(
      new GatewayRequest.ClientHello(1, "my.Main", "host", 1234L),
      new GatewayRequest.ClientHello(2, "my.Main", "host", 1234L, "c-12345678", List.of("job-3", "job-4"), "ab".repeat(32)),
      new GatewayRequest.MasterHello(3),
      new GatewayRequest.WorkerHello(2),
      new GatewayRequest.MonitorHello(3),
      new GatewayRequest.StatusHello(4),
      new GatewayRequest.Create(5, new ResourceRequest(0, 2, 0, 0, null, 512), 30_000, "my.Actor", false),
      new GatewayRequest.Create(11, ResourceRequest.ofCpus(1), 0, "my.Actor", false, 100, true, "pg-2", 3),
      new GatewayRequest.ReserveGroup(12, new GroupRequest(List.of(new ResourceRequest(1, 0, 250, 4096, "H100", 0),
          ResourceRequest.ofCpus(2)), PlacementStrategy.PACK), 30_000, false, 3),
      new GatewayRequest.RemoveGroup(13, "pg-2"),
      new GatewayRequest.Kill(6, "job-1"),
      new GatewayRequest.Ping(7),
      new GatewayRequest.ListWaiting(9),
      new GatewayRequest.DrainHello(10, "w-1", 2, true),
      new GatewayRequest.Authenticate(8, "ab".repeat(32), "0f".repeat(32)));

  private static final List<GatewayReply> REPLIES = List.of(
      new GatewayReply.Welcome(1, CLUSTER, "c-1", List.of(new RuntimeJar("parl.jar", 10, "abc")), "cd".repeat(32)),
      new GatewayReply.Joining(2, CLUSTER),
      new GatewayReply.Status(4, CLUSTER, List.of(WORKER), 1, 0, 1,
          List.of(new MasterState("m-1", "10.0.0.1:8010", "https://10.0.0.1:8110", true)),
          List.of(new WaitingCreate(3, "c-1", "my.Main", "my.Actor", 1200, "2 GPU(s)", 0, "busy", "no worker has 2 vacant GPUs",
              List.of("w-1: 1 of 2 GPUs vacant")))),
      new GatewayReply.Created(5, JOB),
      new GatewayReply.Done(6),
      new GatewayReply.Failed(7L, ErrorKind.RESOURCE, "no worker had 2 vacant GPU(s)"),
      new GatewayReply.Waiting(9, List.of()),
      new GatewayReply.Failed(null, ErrorKind.INVALID, "not valid JSON"),
      new GatewayReply.JobEnded("job-1", "w-1", "its process exited", true),
      new GatewayReply.JobEnded("job-2", "w-1", "GPU 1 is faulty", true, new GpuFault("w-1", 1, "GPU-1", "lost")),
      new GatewayReply.JobEnded("job-3", "w-1", "preempted for a create of priority 9", true, null, true),
      new GatewayReply.Challenge("12".repeat(32)),
      new GatewayReply.Authenticated(8, "e9".repeat(32)),
      new GatewayReply.Failed(8L, ErrorKind.UNAUTHENTICATED, "authentication failed"),
      new GatewayReply.GroupReserved(12, "pg-2", List.of(new GatewayReply.BundleHeld("w-1", "host", List.of(0, 1)),
          new GatewayReply.BundleHeld("w-2", "host2", List.of()))));

  /** A nonce and a proof of the right form. */
  private static final String N = "ab".repeat(32);
  private static final String Z = "00".repeat(32);

  private static Buffer line(String s) {
    return Buffer.buffer(s);
  }

  @Test
  void everyMessageSurvivesTheWire() {
    Set<String> covered = new TreeSet<>();
    for (GatewayRequest r : REQUESTS) {
      assertEquals(r, GatewayCodec.request(Buffer.buffer(GatewayCodec.encode(r))));
      covered.add(r.getClass().getSimpleName());
    }
    for (GatewayReply r : REPLIES) {
      assertEquals(r, GatewayCodec.reply(Buffer.buffer(GatewayCodec.encode(r))));
      covered.add(r.getClass().getSimpleName());
    }
    assertEquals(24, covered.size(), "one instance of every message type: " + covered);
  }

  @Test
  void linesAreJsonNamedByType() {
    JsonObject create = new JsonObject(Buffer.buffer(GatewayCodec.encode(REQUESTS.get(6))));
    assertEquals("Create", create.getString("type"));
    assertEquals(5, create.getInteger("id"));
    JsonObject failed = new JsonObject(Buffer.buffer(GatewayCodec.encode(REPLIES.get(5))));
    assertEquals("RESOURCE", failed.getString("kind"), "kinds travel as ErrorKind names");
    JsonObject joining = new JsonObject(Buffer.buffer(GatewayCodec.encode(new GatewayReply.Joining(2, CLUSTER))));
    assertEquals(joining.getJsonObject("cluster"), GatewayCodec.toJson(CLUSTER), "a part alone is written as in its message");
  }

  @Test
  void whatAnActorAsksForKeepsItsFieldNamesOnTheWire() {
    ResourceRequest asked = new ResourceRequest(1, 0, 250, 512, "A100", 256);
    JsonObject create = new JsonObject(Buffer.buffer(GatewayCodec.encode(new GatewayRequest.Create(5, asked, 30_000, "my.Actor", false))));
    assertEquals(Set.of("cpus", "gpus", "gpuShare", "gpuMemoryMb", "gpuModel", "maxMemoryMb"),
        create.getJsonObject("resources").fieldNames());
    assertEquals(250, create.getJsonObject("resources").getInteger("gpuShare"));
  }

  @Test
  void absentOptionalFieldsTakeTheirDefaults() {
    assertEquals(new GatewayRequest.Create(8, ResourceRequest.ofCpus(1), 30_000, "?", false),
        GatewayCodec.request(line("{\"type\":\"Create\",\"id\":8,\"resources\":{\"cpus\":1},\"timeoutMs\":30000}")));
    assertEquals(new GatewayRequest.ClientHello(1, "?", "?", null), GatewayCodec.request(line("{\"type\":\"ClientHello\",\"id\":1}")));
  }

  private static final String RESERVE_PACK =
      "{\"type\":\"ReserveGroup\",\"id\":18,\"timeoutMs\":1,\"group\":{\"bundles\":[{\"cpus\":1}],\"strategy\":\"PACK\"}}";

  @Test
  void badRequestsAreRefusedWithTheReasonAndTheirId() {
    List<String[]> cases = List.of(
        new String[] {"not json", "not valid JSON", null},
        new String[] {"[1,2,3]", "expected a JSON object", null},
        new String[] {"{\"id\":2}", "needs a \"type\" field", "2"},
        new String[] {"{\"type\":\"hello\",\"id\":3}", "unknown message type \"hello\"", "3"},
        new String[] {"{\"type\":\"ClientHello\"}", "field 'id' is missing", null},
        new String[] {"{\"type\":\"ClientHello\",\"id\":-4}", "field 'id' must be between 0", "-4"},
        new String[] {"{\"type\":\"ClientHello\",\"id\":\"5\"}", "field 'id' must be an integer", null},
        new String[] {"{\"type\":\"Create\",\"id\":7,\"resources\":{\"cpus\":\"many\"},\"timeoutMs\":10}",
            "field 'resources.cpus' must be an integer", "7"},
        new String[] {"{\"type\":\"Create\",\"id\":8,\"resources\":{\"cpus\":1}}", "field 'timeoutMs' is missing", "8"},
        new String[] {"{\"type\":\"Create\",\"id\":9,\"timeoutMs\":99999999999}", "field 'timeoutMs' must be between", "9"},
        new String[] {"{\"type\":\"Create\",\"id\":9,\"timeoutMs\":1,\"resources\":{\"cpus\":1,\"maxMemoryMb\":-1}}",
            "field 'resources': resource amounts must not be negative (cpus=1, gpus=0, gpuShare=0, gpuMemoryMb=0, maxMemoryMb=-1)", "9"},
        new String[] {"{\"type\":\"Create\",\"id\":10,\"timeoutMs\":1,\"resources\":{\"gpus\":1,\"gpuShare\":250}}",
            "field 'resources': an actor asks for whole GPUs or a share of one, not both (1 GPU(s) and 0.25)", "10"},
        new String[] {"{\"type\":\"Create\",\"id\":10,\"timeoutMs\":1,\"resources\":{\"gpuShare\":1000}}",
            "field 'resources': a GPU share is between 1 and 999 thousandths of one GPU, not 1000", "10"},
        new String[] {"{\"type\":\"Create\",\"id\":10,\"timeoutMs\":1,\"resources\":{}}",
            "field 'resources': a request must ask for at least one CPU or some GPU", "10"},
        new String[] {"{\"type\":\"Kill\",\"id\":11}", "field 'jobId' must be a non-empty string", "11"},
        new String[] {"{\"type\":\"Create\",\"id\":14,\"timeoutMs\":1,\"resources\":{\"cpus\":1},\"priority\":-1}",
            "field 'priority' must be between 0 and 100", "14"},
        new String[] {"{\"type\":\"Create\",\"id\":15,\"timeoutMs\":1,\"resources\":{\"cpus\":1},\"group\":\"pg-1\"}",
            "fields 'group' and 'bundle' come together or not at all", "15"},
        new String[] {"{\"type\":\"Create\",\"id\":16,\"timeoutMs\":1,\"resources\":{\"cpus\":1},\"group\":\"pg-1\",\"bundle\":-1}",
            "field 'bundle' must be between 0 and 1023", "16"},
        new String[] {"{\"type\":\"ReserveGroup\",\"id\":17,\"timeoutMs\":1,\"group\":{\"bundles\":[],\"strategy\":\"PACK\"}}",
            "a placement group needs at least one bundle", "17"},
        new String[] {RESERVE_PACK.replace("PACK", "TIGHT"), "strategy", "18"},
        new String[] {RESERVE_PACK.replace("\"id\":18", "\"id\":19,\"priority\":101"), "field 'priority' must be between 0 and 100",
            "19"},
        new String[] {"{\"type\":\"RemoveGroup\",\"id\":20}", "field 'groupId' must be a non-empty string", "20"},
        new String[] {"{\"type\":\"Ping\",\"id\":1.5}", "field 'id' must be an integer", null},
        new String[] {"{\"type\":\"ClientHello\",\"id\":12,\"resumeClientId\":\"c-1\",\"resumeTicket\":\"guess\"}",
            "field 'resumeTicket' must be 32 bytes as 64 lowercase hex digits", "12"},
        new String[] {"{\"type\":\"ClientHello\",\"id\":13,\"resumeTicket\":\"" + N + "\"}",
            "field 'resumeTicket' needs 'resumeClientId'", "13"},
        new String[] {"{\"type\":\"Welcome\",\"id\":1}",
            "unknown message type \"Welcome\"; known types are [Authenticate, ClientHello, Create,", "1"},
        new String[] {"{\"type\":\"Authenticate\",\"id\":1,\"nonce\":\"ab\",\"proof\":\"" + Z + "\"}",
            "field 'nonce' must be 32 bytes as 64 lowercase hex digits", "1"},
        new String[] {"{\"type\":\"Authenticate\",\"id\":2,\"nonce\":\"" + N.toUpperCase() + "\",\"proof\":\"" + Z + "\"}",
            "field 'nonce' must be 32 bytes", "2"},
        new String[] {"{\"type\":\"Authenticate\",\"id\":3,\"nonce\":\"" + N + "\"}", "field 'proof' must be", "3"},
        new String[] {"{\"type\":\"Authenticate\",\"id\":4,\"nonce\":\"" + N + "\",\"proof\":7}", "field 'proof' must be a string", "4"});
    for (String[] c : cases) {
      Buffer line = line(c[0]);
      BadMessageException e = assertThrows(BadMessageException.class, () -> GatewayCodec.request(line), c[0]);
      assertTrue(e.getMessage().contains(c[1]), c[0] + " was refused with: " + e.getMessage());
      assertEquals(c[2] == null ? null : Long.valueOf(c[2]), GatewayCodec.idOf(line), c[0]);
    }
  }

  @Test
  void aReplyThatIsNotOneIsRefused() {
    assertThrows(BadMessageException.class, () -> GatewayCodec.reply(line("{\"type\":\"Ping\",\"id\":1}")));
    assertThrows(BadMessageException.class,
        () -> GatewayCodec.reply(line("{\"type\":\"Failed\",\"id\":1,\"kind\":\"OOPS\",\"message\":\"m\"}")));
    assertNull(GatewayCodec.idOf(line("{\"id\":\"x\"}")));
  }
}
