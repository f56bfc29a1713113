package org.parl.demo.readme;

import io.vertx.core.Future;
import java.util.List;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.PendingCreate;
import org.parl.RemoteActor;

/**
 * The README's example program, whole: {@code java ReadmeExample [HOST:PORT]} against a mixed cluster
 * (its GPU actors ask for an H100, which the fake GPUs of {@code bin/parl fake-gpus} are). What the
 * README shows is the code between the {@code readme:} markers of this file, {@link Counter} and
 * {@link CounterImpl}, which a test keeps equal to it.
 */
public final class ReadmeExample {

  private ReadmeExample() {}

  public static void main(String[] args) {
    String address = args.length > 0 ? args[0] : "127.0.0.1:8010";
    // readme:start
    try (ParlClient parl = Parl.connect(address)) {
      Counter c = parl.actor(Counter.class, CounterImpl.class).create();        // blocking proxy
      c.add(2);

      RemoteActor<Counter> a = parl.actor(Counter.class, CounterImpl.class)
          .args(10)                                                             // constructor arguments
          .createAsync().await();                                               // Future<RemoteActor<Counter>>
      Future<Integer> f = a.call(x -> x.add(5));                                // async, pipelined, in order
      Integer v = a.get("count", Integer.class).await();                        // remote field read: 15
      a.set("count", 0).await();                                                // remote field write
      a.close();                                                                // frees the job (and its GPUs)
      parl.release(c);                                                          // frees the actor behind a proxy

      // GPU and mixed clusters: whole GPUs, an exact share of one, a memory budget, a model
      RemoteActor<Counter> learner = parl.actor(Counter.class, CounterImpl.class).gpus(1).gpuModel("H100")
          .createAsync().await();
      RemoteActor<Counter> policy = parl.actor(Counter.class, CounterImpl.class).gpus(0.25).gpuMemoryMb(4096)
          .createAsync().await();                                               // four of these fill one GPU
      List<PendingCreate> waiting = parl.waiting().await();                     // who waits, and why
      System.out.println("add(5) gave " + f.await() + ", count was " + v + "; learner on GPU " + learner.gpus()
          + ", policy on GPU " + policy.gpus() + "; " + waiting.size() + " create(s) waiting");
    }                                                                           // close() frees everything left
    // readme:end
  }
}
