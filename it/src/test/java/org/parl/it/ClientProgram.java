package org.parl.it;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * A user program run as its own process, so that a test can SIGKILL it: connects, creates
 * {@code n} actors with {@code gpus} GPUs each, prints their job ids and pids, then waits.
 */
public final class ClientProgram {

  private ClientProgram() {}

  public static void main(String[] args) throws Exception {
    ParlClient parl = Parl.connect(args[0]);
    int n = Integer.parseInt(args[1]);
    int gpus = Integer.parseInt(args[2]);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      var actor = parl.actor(Counter.class, CounterImpl.class).gpus(gpus).createAsync().await();
      out.add(actor.jobId() + "=" + actor.call(Counter::pid).await());
    }
    System.out.println("READY " + String.join(",", out));
    new CountDownLatch(1).await(); // until the test kills this process
  }
}
