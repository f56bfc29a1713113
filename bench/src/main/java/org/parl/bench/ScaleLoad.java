package org.parl.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.parl.internal.net.HostPort;
import org.parl.internal.security.ClusterToken;

/**
 * The client side of one scale measurement: {@link ScalePlan#connections()} gateway clients, each
 * on its own thread, allocating and releasing one job after another as fast as the master answers.
 * A cycle is timed from the allocation's request to the release's confirmation.
 */
final class ScaleLoad {

  /** What one measurement found. */
  /**
   * @param cycles the cycles measured (in the measured window)
   * @param allCycles every cycle, warm-up included
   */
  record Result(int cycles, int allCycles, double seconds, Samples cycleTimes, Samples allocateTimes) {
    double perSecond() {
      return cycles / seconds;
    }
  }

  private static final long JOIN_SLACK_MS = 60_000;

  private final ScalePlan plan;
  private final HostPort master;
  private final ClusterToken token;

  ScaleLoad(ScalePlan plan, HostPort master, ClusterToken token) {
    this.plan = plan;
    this.master = master;
    this.token = token;
  }

  /** Opens the connections, runs the cycles (timed, or the plan's fixed count), closes them. */
  Result run() throws Exception {
    List<ScaleClient> clients = new ArrayList<>();
    try {
      for (int i = 0; i < plan.connections(); i++) {
        clients.add(new ScaleClient(master, token));
      }
      return plan.allocations() > 0 ? counted(clients) : timed(clients);
    } finally {
      for (ScaleClient c : clients) {
        c.close();
      }
    }
  }

  private Result timed(List<ScaleClient> clients) throws Exception {
    long start = System.nanoTime();
    long measureFrom = start + plan.warmupMs() * 1_000_000;
    long measureTo = measureFrom + plan.measureMs() * 1_000_000;
    Worker[] workers = new Worker[clients.size()];
    for (int i = 0; i < workers.length; i++) {
      workers[i] = new Worker(clients.get(i), Integer.MAX_VALUE, measureFrom, measureTo);
    }
    runAll(workers, plan.warmupMs() + plan.measureMs());
    return merge(workers, plan.measureMs() / 1000.0);
  }

  private Result counted(List<ScaleClient> clients) throws Exception {
    Worker[] workers = new Worker[clients.size()];
    int n = plan.allocations();
    for (int i = 0; i < workers.length; i++) {
      int share = n / workers.length + (i < n % workers.length ? 1 : 0);
      workers[i] = new Worker(clients.get(i), share, 0, Long.MAX_VALUE);
    }
    long start = System.nanoTime();
    runAll(workers, 0);
    return merge(workers, (System.nanoTime() - start) / 1e9);
  }

  private static void runAll(Worker[] workers, long expectedMs) throws Exception {
    AtomicReference<Exception> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (Worker w : workers) {
      Thread t = new Thread(() -> {
        try {
          w.run();
        } catch (Exception e) {
          failure.compareAndSet(null, e);
        }
      }, "parl-bench-scale-client");
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
    long deadline = System.currentTimeMillis() + expectedMs + JOIN_SLACK_MS;
    for (Thread t : threads) {
      t.join(Math.max(1, deadline - System.currentTimeMillis()));
      if (t.isAlive()) {
        throw new IllegalStateException("a gateway client was still allocating " + JOIN_SLACK_MS / 1000
            + " s after its time: the master stopped answering");
      }
    }
    if (failure.get() != null) {
      throw failure.get();
    }
  }

  private static Result merge(Worker[] workers, double seconds) {
    Samples cycles = new Samples(1024);
    Samples allocates = new Samples(1024);
    int all = 0;
    for (Worker w : workers) {
      cycles.addAll(w.cycles);
      allocates.addAll(w.allocates);
      all += w.done;
    }
    return new Result(cycles.count(), all, seconds, cycles, allocates);
  }

  /** One connection's loop; records the cycles that end inside the measured window. */
  private static final class Worker {
    private final ScaleClient client;
    private final int max;
    private final long from;
    private final long to;
    private final Samples cycles = new Samples(1024);
    private final Samples allocates = new Samples(1024);
    private int done;

    Worker(ScaleClient client, int max, long from, long to) {
      this.client = client;
      this.max = max;
      this.from = from;
      this.to = to;
    }

    void run() throws Exception {
      for (; done < max; done++) {
        long t0 = System.nanoTime();
        if (t0 >= to) {
          return;
        }
        String job = client.allocate();
        long t1 = System.nanoTime();
        client.release(job);
        long t2 = System.nanoTime();
        if (t2 >= from && t2 <= to) {
          cycles.add(t2 - t0);
          allocates.add(t1 - t0);
        }
      }
    }
  }
}
