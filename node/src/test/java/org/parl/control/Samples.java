package org.parl.control;

import java.util.List;
import org.parl.PlacementStrategy;
import org.parl.control.ControlReply.Cancelled;
import org.parl.control.ControlReply.Claimed;
import org.parl.control.ControlReply.Done;
import org.parl.control.ControlReply.Granted;
import org.parl.control.ControlReply.GroupGranted;
import org.parl.control.ControlReply.Held;
import org.parl.control.ControlReply.JobList;
import org.parl.control.ControlReply.JobLog;
import org.parl.control.ControlReply.JobStatus;
import org.parl.control.ControlReply.Launched;
import org.parl.control.ControlReply.QueueFigures;
import org.parl.control.ControlReply.Registered;
import org.parl.control.ControlReply.Snapshot;
import org.parl.control.ControlReply.WaitingList;
import org.parl.control.GatewayQuery.ListHeld;
import org.parl.control.JobCenterRequest.Allocate;
import org.parl.control.JobCenterRequest.CancelClient;
import org.parl.control.JobCenterRequest.ClaimJobs;
import org.parl.control.JobCenterRequest.Drain;
import org.parl.control.JobCenterRequest.DropGroup;
import org.parl.control.JobCenterRequest.EndJob;
import org.parl.control.JobCenterRequest.GetQueue;
import org.parl.control.JobCenterRequest.GetSnapshot;
import org.parl.control.JobCenterRequest.GetWaiting;
import org.parl.control.JobCenterRequest.GpuCondition;
import org.parl.control.JobCenterRequest.GpuHealth;
import org.parl.control.JobCenterRequest.HoldGroup;
import org.parl.control.JobCenterRequest.RegisterWorker;
import org.parl.control.JobCenterRequest.UnregisterWorker;
import org.parl.control.LocalEvent.JobEnded;
import org.parl.control.LocalEvent.MastersChanged;
import org.parl.control.LocalEvent.WorkerLost;
import org.parl.control.WorkerRequest.DownloadLog;
import org.parl.control.WorkerRequest.KillJob;
import org.parl.control.WorkerRequest.Launch;
import org.parl.control.WorkerRequest.ListJobs;
import org.parl.control.WorkerRequest.ReadLog;
import org.parl.control.WorkerRequest.ReadStatus;
import org.parl.internal.resources.GroupRequest;
import org.parl.internal.resources.ResourceRequest;
import org.parl.internal.wire.gateway.GatewayReply.BundleHeld;
import org.parl.internal.wire.gateway.GatewayRequest.Create;
import org.parl.internal.wire.gateway.GatewayRequest.ReserveGroup;
import org.parl.internal.wire.gateway.GpuFault;
import org.parl.internal.wire.gateway.GroupRecord;
import org.parl.internal.wire.gateway.Job;
import org.parl.internal.wire.gateway.JobPlacement;
import org.parl.internal.wire.gateway.WaitingCreate;
import org.parl.internal.wire.gateway.WorkerState;
import org.parl.internal.wire.gateway.WorkerState.GpuCard;

/** One valid instance of every control message, with non-default values wherever there is one. */
final class Samples {

  private Samples() {}

  static final GpuCard CARD = new GpuCard(3, "GPU-1234", "Tesla T4", 15_360, 100, 7);
  static final Job JOB = new Job("job-7", "c-1", "w-a", "my.Actor", 0, List.of(2, 3), 512, 1_700_000_000_000L);
  static final JobView VIEW = new JobView(JOB, "slot-2", 4242, "assigned", 512, 1_700_000_000_000L, null, 17, null);
  static final WorkerState WORKER = new WorkerState("w-a", "node-1", "host-a", "10.0.0.1", new WorkerState.Cpus(0, 0, 0), 16,
      List.of(0, 1), List.of(2, 3), List.of(CARD), List.of("job-7"));

  static List<ControlMessage> all() {
    return List.of(
        new RegisterWorker("w-a", "node-1", "host-a", "10.0.0.1", 16, List.of(0, 1, 2, 3), List.of(CARD)),
        new UnregisterWorker("w-a", "node-1"),
        new Allocate("c-1", "m-1", "my.Main", new Create(7, new ResourceRequest(0, 2, 0, 0, null, 512), 30_000, "my.Actor", true)),
        new Allocate("c-1", "m-1", "my.Main", new Create(8, new ResourceRequest(1, 1), 30_000, "my.Actor", false, 7, true, "pg-3", 1)),
        new HoldGroup("c-1", "m-1", "my.Main", new ReserveGroup(9, new GroupRequest(List.of(new ResourceRequest(1, 1),
            ResourceRequest.ofCpus(2)), PlacementStrategy.STRICT_SPREAD), 30_000, true, 5)),
        new DropGroup("c-1", "pg-3"),
        new EndJob("job-7", "w-a", "exit 1", true),
        new CancelClient("c-1"),
        new GetSnapshot(),
        new GetQueue(),
        new GetWaiting(),
        new Drain("w-a", 1, true),
        new GpuHealth("w-a", "node-1", true, List.of(new GpuCondition(0, true, "GPU-0", null),
            new GpuCondition(1, false, "GPU-1", "uncorrected volatile ECC errors: 2"))),
        new Launch(JOB, "m-1"),
        new KillJob("job-7", "stopped by its client"),
        new ReadLog("job-7", 20),
        new DownloadLog("job-7"),
        new ListJobs(),
        new ReadStatus("job-7"),
        new Done(),
        new Registered(ClusterType.GPU, List.of("job-9")),
        new Granted(new Launch(JOB, "m-1"), "node-1"),
        new GroupGranted("pg-3", List.of(new BundleHeld("w-a", "host-a", List.of(2)), new BundleHeld("w-b", "host-b", List.of()))),
        new Cancelled(2),
        new QueueFigures(3, 1500),
        new WaitingList(List.of(new WaitingCreate(4, "c-1", "my.Main", "my.Actor", 900, "2 GPU(s)", 1, "busy",
            "no worker has 2 vacant GPUs", List.of("w-a: 1 of 2 GPUs vacant")))),
        new Snapshot(ClusterType.GPU, 8, List.of(WORKER), List.of(JOB), 1, 250, "ok", List.of(new GroupRecord("pg-3", "c-1",
            PlacementStrategy.PACK, List.of(new GroupRecord.BundleState("w-a", List.of(2), "job-7"))))),
        new Launched(new JobPlacement(JOB, "10.0.0.1", 40_123, "0123456789abcdef", "ab".repeat(32), 4242, "slot-2")),
        new JobLog(VIEW, "line 1\nline 2 \"quoted\" \u00e9\n"),
        new JobList(List.of(VIEW)),
        new JobStatus(VIEW),
        new JobEnded("job-7", "c-1", "w-a", "its process exited", false),
        new JobEnded("job-8", "c-1", "w-a", "GPU 1 is faulty", true,
            new GpuFault("w-a", 1, "GPU-1", "uncorrected volatile ECC errors: 2")),
        new WorkerLost("w-a", "worker w-a died"),
        new RegisterWorker("w-a", "node-1", "host-a", "10.0.0.1", 16, 32, 8_000, List.of(0, 1, 2, 3), List.of(CARD), List.of(JOB)),
        new ClaimJobs("c-1", List.of("job-7", "job-8")),
        new Claimed(List.of(JOB)),
        new ListHeld(),
        new Held(List.of("job-7")),
        new MastersChanged("m-2", "m-1", "10.0.0.1:8010"));
  }
}
