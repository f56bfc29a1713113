package org.parl.it;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * The user program of {@link SlurmIT}, run by {@code bin/parl slurm -- ...} inside a Slurm job:
 * connects where the environment says ({@code PARL_ADDRESS}, {@code PARL_TOKEN_FILE}), creates N
 * one-GPU actors and prints, for each, the Slurm node its job runs on, its GPUs, its
 * {@code CUDA_VISIBLE_DEVICES} and its pid; then prints READY and either exits with status 7 (so that
 * the test sees the status passed through) or, with {@code wait}, waits to be cancelled.
 */
public final class SlurmClient {

  private SlurmClient() {}

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    boolean wait = args.length > 1 && args[1].equals("wait");
    try (ParlClient parl = Parl.connect()) {
      List<RemoteActor<Counter>> actors = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        actors.add(parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await());
      }
      for (RemoteActor<Counter> a : actors) {
        String node = a.call(x -> x.readFile("/proc/sys/kernel/hostname")).await().strip(); // its UTS namespace's
        System.out.printf("ACTOR node=%s gpus=%s cvd=%s pid=%d sum=%d%n", node,
            String.join(",", a.gpus()), a.call(x -> x.env("CUDA_VISIBLE_DEVICES")).await(),
            a.call(Counter::pid).await(), a.call(x -> x.add(5)).await());
      }
      System.out.println("READY");
      System.out.flush();
      if (wait) {
        new CountDownLatch(1).await(); // until the job is cancelled
      }
    }
    System.exit(7);
  }
}
