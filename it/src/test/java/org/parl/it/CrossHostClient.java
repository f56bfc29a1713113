package org.parl.it;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * The user program of {@link CrossHostIT}, run inside another host than the cluster's nodes:
 * {@code ADDRESS N}. Creates N one-GPU actors, prints for each its job, worker, GPUs,
 * {@code CUDA_VISIBLE_DEVICES} and pid, echoes an 8 MiB {@code float[]} through each, prints
 * READY, and frees its actors when it is stopped (SIGTERM).
 */
public final class CrossHostClient {

  private CrossHostClient() {}

  public static void main(String[] args) throws Exception {
    ParlClient parl = Parl.connect(args[0]);
    CountDownLatch closed = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      System.out.println("CLOSING");
      try {
        parl.close();
        System.out.println("CLOSED");
      } catch (Throwable e) {
        e.printStackTrace(System.out);
      }
      System.out.flush();
      closed.countDown();
    }));
    List<RemoteActor<Counter>> actors = new ArrayList<>();
    for (int i = 0; i < Integer.parseInt(args[1]); i++) {
      actors.add(parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await());
    }
    for (RemoteActor<Counter> a : actors) {
      String visible = a.call(x -> x.env("CUDA_VISIBLE_DEVICES")).await();
      a.call(x -> x.add(2)).await();
      int sum = a.call(x -> x.add(3)).await();
      System.out.printf("ACTOR job=%s worker=%s gpus=%s cvd=%s pid=%d sum=%d%n", a.jobId(), a.workerId(),
          String.join(",", a.gpus()), visible, a.call(Counter::pid).await(), sum);
    }
    float[] data = floats(2 << 20);
    for (RemoteActor<Counter> a : actors) {
      float[] back = a.call(x -> x.echo(data)).await();
      System.out.printf("ECHO job=%s floats=%d intact=%b%n", a.jobId(), back.length, Arrays.equals(data, back));
    }
    System.out.println("READY");
    System.out.flush();
    closed.await();
  }

  /** Values that a lost, reordered or byte-swapped chunk would change. */
  private static float[] floats(int n) {
    Random r = new Random(42);
    float[] f = new float[n];
    for (int i = 0; i < n; i++) {
      f[i] = i + r.nextFloat();
    }
    return f;
  }
}
