package org.parl.cli;

import io.vertx.core.Future;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.control.ClusterType;
import org.parl.demo.FakeNvidiaSmi;
import org.parl.demo.Learner;
import org.parl.demo.LearnerImpl;
import org.parl.internal.net.HostPort;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.gateway.WorkerState;
import org.parl.node.BlockingGateway;
import org.parl.node.LocalWorker;
import org.parl.node.MasterNode;
import org.parl.worker.gpu.GpuInventory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code parl demo}: a mixed cluster in this process (a fake 4-GPU inventory where the host has
 * no GPU), a short workload of CPU and GPU actors with blocking and future
 * calls, then a clean stop.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Start a small mixed cluster in this process (CPU and GPU actors side by side; fake GPUs where "
        + "none are found), run a few actors, and stop.")
public final class DemoCommand implements Callable<Integer> {

  @Mixin
  GpuOptions gpuOptions;

  @Override
  public Integer call() throws Exception {
    // the demo tells its own story; the nodes' operator log lines would drown it
    ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
        .setLevel(ch.qos.logback.classic.Level.WARN);
    GpuInventory inventory = gpuOptions.inventory();
    GpuInventory.Reading reading = inventory.read();
    if (reading.devices().isEmpty()) {
      inventory = new GpuInventory(fakeNvidiaSmi().toString());
      System.out.println("No NVIDIA GPU here (" + reading.problem().orElse("nvidia-smi lists none")
          + "): the cluster uses a FAKE 4-GPU inventory, a stand-in nvidia-smi script. Everything else is real:");
      System.out.println("  job processes, CUDA_VISIBLE_DEVICES, the Hazelcast cluster, the monitor.");
    } else {
      System.out.println("Found " + reading.devices().size() + " GPU(s) with nvidia-smi.");
    }
    // CPUs are lent as a count: 4 lets the GPU actors below each take one of their own beside the CPU actors
    int cpus = 4;
    System.out.println("Starting a mixed cluster (CPU and GPU actors side by side) in this process...");
    TokenOption.secureHome();
    ClusterToken token = ClusterToken.findOrCreate(null, System.out::println);
    try (MasterNode mixed = MasterNode.start(spec(ClusterType.MIXED, cpus, inventory), token)) {
      String address = mixed.info.address();
      System.out.println("  mixed cluster at " + address + " (" + cpus + " CPUs, GPUs " + mixed.local.gpus() + "), monitor "
          + mixed.info.monitorUrl());
      runCpu(address);
      runGpu(address);
      runShared(address, token);
      System.out.println("Stopping the cluster...");
    }
    System.out.println("demo finished: every actor closed, every job process stopped.");
    return 0;
  }

  private static MasterNode.Spec spec(ClusterType type, Integer cpus, GpuInventory inventory) {
    return new MasterNode.Spec("127.0.0.1", 0, null, type,
        LocalWorker.resolve(type, cpus, null, inventory, "127.0.0.1"), 8, null);
  }

  private static void runCpu(String address) {
    System.out.println();
    System.out.println("== CPU actors on " + address + " (they go to CPUs, and see no GPU)");
    try (ParlClient parl = Parl.connect(address)) {
      long t0 = System.nanoTime();
      Learner blocking = parl.actor(Learner.class, LearnerImpl.class).create();
      System.out.printf("created a CPU actor in %.0f ms: %s%n", ms(t0), blocking.whereAmI());
      t0 = System.nanoTime();
      double pi = blocking.sample(100_000);
      System.out.printf("blocking call: sample(100000) = %.5f in %.1f ms%n", pi, ms(t0));
      RemoteActor<Learner> async = parl.actor(Learner.class, LearnerImpl.class).createAsync().await();
      t0 = System.nanoTime();
      List<Future<Double>> futures = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        futures.add(async.call(l -> l.sample(50_000)));
      }
      Future.all(futures).await();
      System.out.printf("20 future calls, pipelined: pi ~ %.5f after 1M samples, in %.1f ms%n",
          futures.get(19).await(), ms(t0));
      parl.release(blocking);
      async.close();
    }
  }

  private static void runGpu(String address) {
    System.out.println();
    System.out.println("== GPU actors on " + address + " (each takes its GPUs and one CPU)");
    try (ParlClient parl = Parl.connect(address)) {
      List<RemoteActor<Learner>> actors = new ArrayList<>();
      for (int gpus : new int[] {1, 1, 2}) {
        long t0 = System.nanoTime();
        RemoteActor<Learner> a = parl.actor(Learner.class, LearnerImpl.class).gpus(gpus).createAsync().await();
        actors.add(a);
        System.out.printf("%d-GPU actor %s got GPU(s) %s in %.0f ms; it sees %s%n", gpus, a.jobId(), a.gpus(), ms(t0),
            a.call(Learner::whereAmI).await());
      }
      List<Future<Double>> futures = new ArrayList<>();
      for (RemoteActor<Learner> a : actors) {
        futures.add(a.call(l -> l.sample(200_000)));
      }
      Future.all(futures).await();
      System.out.println("future calls on all GPU actors at once: " + futures.stream()
          .map(f -> String.format("%.4f", f.result())).toList());
      actors.forEach(RemoteActor::close);
      System.out.println("closed the GPU actors; their GPUs are back in the pool");
    }
  }

  /** Four quarter-GPU actors with memory budgets share one GPU; the pool shows the shares exactly. */
  private static void runShared(String address, ClusterToken token) {
    System.out.println();
    System.out.println("== shared GPUs on " + address + ": four actors with gpus(0.25).gpuMemoryMb(8192)");
    try (ParlClient parl = Parl.connect(address)) {
      List<RemoteActor<Learner>> actors = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        RemoteActor<Learner> a = parl.actor(Learner.class, LearnerImpl.class).gpus(0.25).gpuMemoryMb(8192).cpus(0)
            .createAsync().await();
        actors.add(a);
        System.out.printf("0.25-GPU actor %s got GPU(s) %s; it sees %s%n", a.jobId(), a.gpus(), a.call(Learner::whereAmI).await());
      }
      for (WorkerState w : BlockingGateway.status(HostPort.parse(address), token).workers()) {
        StatusCommand.gpuLine(w).ifPresent(line -> System.out.println("the pool: " + line));
      }
      List<Future<Double>> futures = new ArrayList<>();
      for (RemoteActor<Learner> a : actors) {
        futures.add(a.call(l -> l.sample(100_000)));
      }
      Future.all(futures).await();
      System.out.println("future calls on the four sharers at once: " + futures.stream()
          .map(f -> String.format("%.4f", f.result())).toList());
      actors.forEach(RemoteActor::close);
      System.out.println("closed the sharers; the GPU is vacant again");
    }
  }

  private static Path fakeNvidiaSmi() throws IOException {
    Path dir = Files.createTempDirectory("parl-demo");
    Path script = FakeNvidiaSmi.write(dir, 4);
    // deleted in the reverse order of these calls: the files, then their folders
    dir.toFile().deleteOnExit();
    script.getParent().toFile().deleteOnExit();
    try (var files = Files.list(script.getParent())) {
      files.forEach(f -> f.toFile().deleteOnExit());
    }
    return script;
  }

  private static double ms(long t0) {
    return (System.nanoTime() - t0) / 1e6;
  }
}
