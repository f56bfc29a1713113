package org.parl.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.parl.PlacementStrategy;
import org.parl.control.ClusterType;
import org.parl.control.ControlReply.GroupGranted;
import org.parl.control.JobCenterRequest.Allocate;
import org.parl.control.JobCenterRequest.HoldGroup;
import org.parl.control.JobCenterRequest.RegisterWorker;
import org.parl.internal.resources.GroupRequest;
import org.parl.internal.resources.ResourceRequest;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.gateway.GatewayReply.BundleHeld;
import org.parl.internal.wire.gateway.GatewayRequest;
import org.parl.internal.wire.gateway.Job;

/** Placement groups in the JobCenter: held whole, actors into bundles, removal, loss of a worker, exact accounting. */
class JobCenterGroupsTest {

  /** Started long enough ago that its workers are all there: what can never fit is refused. */
  private final JobCenter<String> center = new JobCenter<>(ClusterType.MIXED, 8, 64, 1,
      System.nanoTime() - JobCenter.WORKERS_ARRIVING_NANOS);

  private static RegisterWorker worker(String id, int cpus, List<Integer> gpus) {
    return new RegisterWorker(id, "node-" + id, "host-" + id, "127.0.0.1", cpus, gpus, List.of());
  }

  private static HoldGroup group(String client, PlacementStrategy strategy, int priority, ResourceRequest... bundles) {
    return new HoldGroup(client, "m-1", "my.Main",
        new GatewayRequest.ReserveGroup(1, new GroupRequest(List.of(bundles), strategy), 1000, false, priority));
  }

  private static Allocate into(String client, String groupId, int bundle) {
    return new Allocate(client, "m-1", "my.Main", new GatewayRequest.Create(2, new ResourceRequest(1, 1, 0, 0, null, 256),
        1000, "my.Actor", false, 0, false, groupId, bundle));
  }

  private static Allocate gpus(String client, int n) {
    return new Allocate(client, "m-1", "my.Main", new GatewayRequest.Create(3, new ResourceRequest(1, n), 1000, "my.Actor",
        false));
  }

  private void twoHosts() {
    center.register(worker("w-1", 4, List.of(0, 1)));
    center.register(worker("w-2", 4, List.of(0, 1)));
  }

  @Test
  void aStrictSpreadGroupIsHeldOnAWorkerPerBundleAndItsActorsTakeTheirBundles() {
    twoHosts();
    GroupGranted g = center.submitGroup(group("c-1", PlacementStrategy.STRICT_SPREAD, 0, new ResourceRequest(1, 1),
        new ResourceRequest(1, 1)), "h").group().orElseThrow();
    assertEquals(Set.of("w-1", "w-2"), g.bundles().stream().map(BundleHeld::workerId).collect(Collectors.toSet()));
    center.checkInvariants();

    Job actor = center.submit(into("c-1", g.groupId(), 1), "a").job().orElseThrow();
    assertEquals(g.bundles().get(1).workerId(), actor.workerId());
    assertEquals(g.bundles().get(1).gpus(), actor.gpus());
    assertEquals(256, actor.maxMemoryMb(), "the actor's own memory limit goes with it");
    center.checkInvariants();

    Rejected busy = assertThrows(Rejected.class, () -> center.submit(into("c-1", g.groupId(), 1), "b"));
    assertEquals(ErrorKind.INVALID, busy.kind());
    assertTrue(busy.getMessage().contains("is held by job " + actor.jobId()), busy.getMessage());

    center.end(actor.jobId());
    center.checkInvariants();
    Job again = center.submit(into("c-1", g.groupId(), 1), "c").job().orElseThrow();
    assertNotEquals(actor.jobId(), again.jobId(), "each actor in a bundle is a job of its own");
    assertEquals(actor.gpus(), again.gpus(), "on the same GPUs, held by the bundle meanwhile");
    center.checkInvariants();
  }

  @Test
  void theRestOfThePoolIsNotWhatTheGroupHolds() {
    twoHosts();
    GroupGranted g = center.submitGroup(group("c-1", PlacementStrategy.STRICT_PACK, 0, new ResourceRequest(1, 1),
        new ResourceRequest(1, 1)), "h").group().orElseThrow();
    String packed = g.bundles().get(0).workerId();
    assertEquals(packed, g.bundles().get(1).workerId());
    Job other = center.submit(gpus("c-2", 2), "x").job().orElseThrow();
    assertNotEquals(packed, other.workerId(), "the group's GPUs are held, idle or not");
    assertTrue(center.submit(gpus("c-2", 1), "y").job().isEmpty(), "nothing vacant: it waits");
    center.checkInvariants();

    assertEquals(List.of(), center.removeGroup(g.groupId(), "c-1").orElseThrow().jobs());
    assertEquals(1, center.drain().size(), "the idle bundles returned at once and served the waiting create");
    center.checkInvariants();
  }

  @Test
  void removingAGroupReturnsItsActorsJobsToStopAndTheirUnitsOnlyWhenTheyEnd() {
    twoHosts();
    GroupGranted g = center.submitGroup(group("c-1", PlacementStrategy.PACK, 0, new ResourceRequest(1, 2),
        new ResourceRequest(1, 2)), "h").group().orElseThrow();
    Job actor = center.submit(into("c-1", g.groupId(), 0), "a").job().orElseThrow();

    Rejected foreign = assertThrows(Rejected.class, () -> center.removeGroup(g.groupId(), "c-2"));
    assertEquals("placement group " + g.groupId() + " belongs to another client", foreign.getMessage());
    assertThrows(Rejected.class, () -> center.submit(into("c-2", g.groupId(), 1), "b"), "another client's group");

    JobCenter.GroupEnded ended = center.removeGroup(g.groupId(), "c-1").orElseThrow();
    assertEquals(List.of(actor), ended.jobs());
    center.checkInvariants();
    assertTrue(center.submit(gpus("c-2", 2), "x").job().isPresent(), "the idle bundle's GPUs are back");
    assertTrue(center.submit(gpus("c-2", 2), "y").job().isEmpty(), "the actor's are not: it may still run");
    center.end(actor.jobId());
    assertEquals(1, center.drain().size());
    center.checkInvariants();

    assertTrue(center.removeGroup(g.groupId(), "c-1").isEmpty(), "removing it again changes nothing");
    Rejected gone = assertThrows(Rejected.class, () -> center.submit(into("c-1", g.groupId(), 1), "z"));
    assertEquals(ErrorKind.LOST, gone.kind());
    assertEquals("placement group " + g.groupId() + " is gone: its placement group " + g.groupId() + " was removed",
        gone.getMessage());
  }

  @Test
  void aWorkerLeavingEndsTheGroupsItHeldABundleOf() {
    twoHosts();
    GroupGranted g = center.submitGroup(group("c-1", PlacementStrategy.STRICT_SPREAD, 0, new ResourceRequest(1, 1),
        new ResourceRequest(1, 1)), "h").group().orElseThrow();
    int onW2 = g.bundles().get(0).workerId().equals("w-2") ? 0 : 1;
    Job survivor = center.submit(into("c-1", g.groupId(), 1 - onW2), "a").job().orElseThrow();
    center.removeWorker("w-2");
    List<JobCenter.GroupEnded> ended = center.takeEndedGroups();
    assertEquals(1, ended.size());
    assertEquals(List.of(survivor), ended.get(0).jobs(), "its actor on the other worker is stopped with it");
    assertTrue(ended.get(0).cause().contains("lost bundle " + onW2 + " with worker w-2"), ended.get(0).cause());
    assertEquals(List.of(), center.takeEndedGroups());
    center.checkInvariants();
    center.end(survivor.jobId());
    center.checkInvariants();
    assertEquals(2, center.snapshot("ok").workers().get(0).vacantGpus().size());
  }

  @Test
  void badGroupsAreRefusedWithTheirReason() {
    twoHosts();
    Rejected tooBig = assertThrows(Rejected.class, () -> center.submitGroup(group("c-1", PlacementStrategy.STRICT_PACK, 0,
        new ResourceRequest(1, 2), new ResourceRequest(1, 1)), "h"));
    assertEquals(ErrorKind.INVALID, tooBig.kind());
    assertTrue(tooBig.getMessage().startsWith("no worker of this cluster could ever hold placement group 2 bundles, STRICT_PACK"),
        tooBig.getMessage());
    Rejected perGpu = assertThrows(Rejected.class, () -> center.submitGroup(group("c-1", PlacementStrategy.PACK, 0,
        new ResourceRequest(1, 1), new ResourceRequest(1, 9)), "h"));
    assertTrue(perGpu.getMessage().startsWith("bundle 1: an actor may ask for at most 8 GPUs"), perGpu.getMessage());
    Rejected unknown = assertThrows(Rejected.class, () -> center.submit(into("c-1", "pg-404", 0), "a"));
    assertEquals("no placement group pg-404 is held in this cluster", unknown.getMessage());
    GroupGranted g = center.submitGroup(group("c-1", PlacementStrategy.SPREAD, 0, new ResourceRequest(1, 1)), "h")
        .group().orElseThrow();
    Rejected index = assertThrows(Rejected.class, () -> center.submit(into("c-1", g.groupId(), 1), "a"));
    assertEquals("placement group " + g.groupId() + " has bundles 0 to 0, not 1", index.getMessage());
    center.checkInvariants();
  }

  @Test
  void aWaitingGroupIsHeldWholeWhenJobsEndAndAClientsGroupsGoWithIt() {
    twoHosts();
    Job a = center.submit(gpus("c-2", 2), "x").job().orElseThrow();
    Job b = center.submit(gpus("c-2", 1), "y").job().orElseThrow();
    JobCenter.GroupSubmitted waiting = center.submitGroup(group("c-1", PlacementStrategy.STRICT_SPREAD, 0,
        new ResourceRequest(1, 1), new ResourceRequest(1, 1)), "h");
    assertTrue(waiting.group().isEmpty());
    assertTrue(center.reason(waiting.requestId()).isPresent());
    assertEquals("placement group", center.waiting().get(0).actorClass());
    center.end(b.jobId());
    assertEquals(List.of(), center.drain(), "one worker has a GPU vacant: not enough for a bundle on each");
    center.end(a.jobId());
    List<JobCenter.Granted<String>> granted = center.drain();
    assertEquals(1, granted.size());
    assertNull(granted.get(0).job());
    assertEquals("h", granted.get(0).handle());
    center.checkInvariants();
    assertEquals(1, center.removeGroupsOf("c-1").size());
    assertEquals(List.of(), center.groups());
    center.checkInvariants();
  }
}
