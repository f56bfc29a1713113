package org.parl.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.parl.ConnectOptions;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * The user program of {@link PartitionIT}, run on a host of its own: {@code ADDRESS N MARKER WAIT_S}.
 * Creates N one-GPU actors (waiting at most WAIT_S seconds for GPUs) and prints one ACTOR line each.
 * With a MARKER path it then blocks in a call to the first actor (which creates MARKER and sleeps);
 * when that call fails it prints FAILED, calls the second actor and prints NEXT (times as epoch
 * milliseconds), and waits to be stopped. With MARKER {@code -} it calls each actor, prints READY,
 * closes the client and exits, as it does after a create that fails (printing CREATE_FAILED).
 */
public final class PartitionClient {

  private PartitionClient() {}

  public static void main(String[] args) throws Exception {
    ParlClient parl = Parl.connect(new ConnectOptions(args[0]).setResourceWaitTimeout(Duration.ofSeconds(Long.parseLong(args[3]))));
    List<RemoteActor<Counter>> actors = new ArrayList<>();
    try {
      for (int i = 0; i < Integer.parseInt(args[1]); i++) {
        actors.add(parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await());
      }
    } catch (RuntimeException e) {
      System.out.println("CREATE_FAILED type=" + e.getClass().getName() + " message=" + e.getMessage());
      parl.close();
      return; // the client's threads are daemons: the JVM ends
    }
    for (RemoteActor<Counter> a : actors) {
      System.out.printf("ACTOR job=%s worker=%s gpus=%s pid=%d%n", a.jobId(), a.workerId(), String.join(",", a.gpus()),
          a.call(Counter::pid).await());
    }
    if ("-".equals(args[2])) {
      System.out.println("READY");
      parl.close();
      System.out.println("CLOSED");
      return;
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      parl.close();
      stopped.countDown();
    }));
    System.out.println("CALLING");
    System.out.flush();
    report("FAILED", () -> actors.get(0).proxy().markThenSleep(args[2], 300_000));
    report("NEXT", () -> actors.get(actors.size() - 1).proxy().add(1));
    System.out.flush();
    stopped.await();
  }

  private static void report(String what, Runnable call) {
    String outcome;
    try {
      call.run();
      outcome = "type=none message=answered";
    } catch (RuntimeException e) {
      outcome = "type=" + e.getClass().getName() + " message=" + e.getMessage();
    }
    System.out.println(what + " at=" + System.currentTimeMillis() + " " + outcome);
  }
}
