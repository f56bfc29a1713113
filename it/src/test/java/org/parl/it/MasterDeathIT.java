package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.parl.ActorLostException;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/** docs/contract.md §7: when the master dies, workers and clients say so and nothing hangs. */
class MasterDeathIT {

  @Test
  void workersAndClientsNoticeAMasterThatDied() throws Exception {
    try (TestCluster cluster = TestCluster.start(0, "--cpus", "1")) {
      ParlProcess[] worker = new ParlProcess[1];
      String workerId = cluster.addWorker(worker, "--cpus", "2");
      List<Path> areasBefore = SharedMemoryIT.leftBy(ProcessHandle.current().pid());
      ParlClient parl = Parl.connect(cluster.options());
      RemoteActor<Counter> a = parl.actor(Counter.class, CounterImpl.class).cpus(2).createAsync().await();
      assertEquals(workerId, a.workerId());
      long jobPid = a.call(Counter::pid).await();
      Path running = cluster.marker("master-death");
      Future<Void> pending = a.run(x -> x.markThenSleep(running.toString(), 60_000));
      Await.until("the call running in job " + a.jobId(), Duration.ofSeconds(20), () -> Files.exists(running));

      cluster.master.kill();

      ActorLostException lost = assertThrows(ActorLostException.class, () -> pending.await(20, TimeUnit.SECONDS));
      assertTrue(lost.getMessage().contains("master"), lost.getMessage());
      assertEquals(1, worker[0].awaitExit(Duration.ofSeconds(30)), "the worker stops when its master is gone");
      assertTrue(worker[0].output().contains("left the cluster; worker " + workerId + " stops"), worker[0].output());
      Await.exited(jobPid, Duration.ofSeconds(10), "the job process ending with its worker");
      assertThrows(ActorLostException.class, () -> parl.actor(Counter.class, CounterImpl.class).create());
      Await.until("the client's spare shared-memory area removed while the client lives on", Duration.ofSeconds(5),
          () -> areasBefore.containsAll(SharedMemoryIT.leftBy(ProcessHandle.current().pid())));
      parl.close();
    }
  }
}
