package org.parl.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.control.ClusterType;
import org.parl.demo.FakeNvidiaSmi;
import org.parl.demo.Learner;
import org.parl.demo.LearnerImpl;
import org.parl.internal.security.ClusterToken;
import org.parl.node.LocalWorker;
import org.parl.node.MasterNode;
import org.parl.worker.gpu.GpuDevice;
import org.parl.worker.gpu.GpuInventory;

/**
 * What {@code bin/gpu-check} runs on a machine with NVIDIA GPUs (never in CI): prints the GPU
 * inventory as a worker reads it, starts a GPU cluster in this process on it, creates two 1-GPU
 * actors that say the {@code CUDA_VISIBLE_DEVICES} they see and what the GPU identity check found
 * on the driver, and stops everything. Exit status 0 when both actors were created and their
 * checks did not fail, else 1.
 *
 * <p>Arguments: {@code [--nvidia-smi PATH] [--fake-dir DIR]}; with {@code --fake-dir} it writes a
 * fake 2-GPU nvidia-smi into DIR and uses it (the script puts its fake libcuda there too).
 */
public final class GpuCheck {

  private GpuCheck() {}

  public static void main(String[] args) throws Exception {
    ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
        .setLevel(ch.qos.logback.classic.Level.WARN);
    String smi = null;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--nvidia-smi" -> smi = args[i + 1];
        case "--fake-dir" -> smi = FakeNvidiaSmi.write(Path.of(args[i + 1]), FakeNvidiaSmi.gpus(2)).toString();
        default -> {
          System.err.println("gpu-check: unknown argument " + args[i] + "; usage: [--nvidia-smi PATH] [--fake-dir DIR]");
          System.exit(2);
        }
      }
    }
    System.exit(run(GpuInventory.of(smi)) ? 0 : 1);
  }

  private static boolean run(GpuInventory inventory) throws Exception {
    GpuInventory.Reading reading = inventory.read();
    System.out.println("== inventory (" + inventory.binary() + ")");
    if (reading.problem().isPresent()) {
      System.out.println("cannot read it: " + reading.problem().get());
      return false;
    }
    for (GpuDevice d : reading.devices()) {
      System.out.println("GPU " + d.index() + ": " + d.uuid() + ", " + d.name() + ", " + d.memoryTotalMb() + " MiB, "
          + (d.health().healthy() ? "healthy" : d.health().state() + " (" + d.health().fault() + ")")
          + d.mig().map(m -> ", MIG instance " + m.device() + " of GPU " + m.parentIndex() + " (" + m.parentUuid() + ")").orElse("")
          + ", CUDA_VISIBLE_DEVICES=" + d.visibleName());
    }
    reading.unreadable().forEach(u -> System.out.println("unreadable: " + u));
    TokenOption.secureHome();
    ClusterToken token = ClusterToken.findOrCreate(null, System.out::println);
    MasterNode.Spec spec = new MasterNode.Spec("127.0.0.1", 0, null, ClusterType.GPU,
        LocalWorker.resolve(ClusterType.GPU, null, null, inventory, "127.0.0.1"), 8, null);
    boolean ok = true;
    try (MasterNode master = MasterNode.start(spec, token); ParlClient parl = Parl.connect(master.info.address())) {
      System.out.println("== GPU cluster at " + master.info.address() + " lending GPU(s) " + master.local.gpus());
      List<RemoteActor<Learner>> actors = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        try {
          RemoteActor<Learner> a = parl.actor(Learner.class, LearnerImpl.class).gpus(1).createAsync().await();
          actors.add(a);
          String identity = a.call(Learner::gpuIdentity).await();
          ok &= !identity.startsWith("failed");
          System.out.println("actor " + (i + 1) + " got GPU " + a.gpus() + "; " + a.call(Learner::whereAmI).await()
              + "; identity check " + identity);
        } catch (RuntimeException e) {
          ok = false;
          System.out.println("actor " + (i + 1) + " could not be created: " + e.getMessage());
        }
      }
      actors.forEach(RemoteActor::close);
    }
    System.out.println(ok ? "gpu-check passed" : "gpu-check FAILED");
    return ok;
  }
}
