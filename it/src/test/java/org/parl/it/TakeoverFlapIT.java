package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.map.IMap;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.cluster.Addresses;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * A worker that still sees the cluster while masters change over never fences. The active master's
 * record vanishes from the cluster map (as when the two members holding its partition die together)
 * while a standby runs: workers follow the standby, then the active master writes its record again
 * and they follow it back, so the registration with the standby is superseded. That failure once
 * armed a fence on every worker of a healthy cluster; now it is ignored, and a fence that was armed
 * is cancelled by the live master's answer.
 */
class TakeoverFlapIT {

  @Test
  void aMasterRecordThatVanishesAndComesBackFencesNoWorker() throws Exception {
    try (TestCluster cluster = TestCluster.start(0, "--no-local-worker");
        ParlProcess standby = ParlProcess.start(ParlProcess.env(cluster.home), "master", "--standby", "--address",
            cluster.address, "--port", "0", "--no-local-worker")) {
      standby.awaitLine("standby of the active master at", TestCluster.START);
      ParlProcess[] worker = new ParlProcess[1];
      cluster.addWorker(worker, "--cpus", "1", "--fence-after", "3");
      ParlClient parl = cluster.connect();
      RemoteActor<Counter> actor = parl.actor(Counter.class, CounterImpl.class).createAsync().await();
      assertEquals(1, actor.call(x -> x.add(1)).await());

      String activeKey = null;
      for (Map.Entry<String, io.vertx.core.json.JsonObject> e : cluster.member().map(Addresses.MASTERS_MAP).entrySet()) {
        if (e.getValue().toString().contains(cluster.address)) {
          activeKey = e.getKey();
        }
      }
      assertTrue(activeKey != null, "the active master's record is in the map");
      IMap<String, String> masters = cluster.member().node().hazelcast().getMap(Addresses.MASTERS_MAP);
      masters.remove(activeKey);

      String key = activeKey;
      Await.until("the active master writing its record again", Duration.ofSeconds(20), () -> masters.containsKey(key));
      // longer than the grace, the probe and the worker's fencing limit: a fence armed by the flap would have struck
      assertThrows(AssertionError.class, () -> worker[0].awaitExit(Duration.ofSeconds(10)), "the worker runs on");
      assertFalse(worker[0].output().contains("fencing"), worker[0].output());
      assertEquals(2, actor.call(x -> x.add(1)).await(), "its actor still answers");
    }
  }
}
