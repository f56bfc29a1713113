package org.parl.it;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.parl.Bundle;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.PlacementGroup;
import org.parl.PlacementStrategy;
import org.parl.RemoteActor;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * The user program of {@link CrossHostIT}'s placement group test, run inside another host than the
 * cluster's nodes: {@code ADDRESS N}. Holds a STRICT_SPREAD group of N one-GPU bundles, prints
 * {@code GROUP} and a {@code BUNDLE} line per bundle (its worker and GPUs), creates an actor into each
 * bundle and prints for each its job, worker, GPUs, {@code CUDA_VISIBLE_DEVICES}, pid and the IPv4
 * addresses its network namespace has (from {@code /proc/net/fib_trie}, read by the actor), then READY.
 * Then, a command per line of its standard input: {@code TOO_MANY} asks for a STRICT_SPREAD group of
 * N+1 bundles and prints how that ended ({@code REFUSED} or {@code HELD}); {@code REMOVE} removes the
 * group and prints how a call to each actor ends ({@code CALL}); {@code CLOSE} (or the end of the
 * input) closes the client and prints CLOSED.
 */
public final class CrossHostGroupClient {

  private CrossHostGroupClient() {}

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[1]);
    List<RemoteActor<Counter>> actors = new ArrayList<>();
    try (ParlClient parl = Parl.connect(args[0]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      PlacementGroup group = parl.createGroup(PlacementStrategy.STRICT_SPREAD, bundles(n));
      System.out.printf("GROUP id=%s size=%d%n", group.id(), group.size());
      for (int i = 0; i < n; i++) {
        System.out.printf("BUNDLE i=%d worker=%s gpus=%s%n", i, group.workerOf(i), join(group.gpusOf(i)));
      }
      for (int i = 0; i < n; i++) {
        RemoteActor<Counter> a = parl.actor(Counter.class, CounterImpl.class).inGroup(group, i).createAsync().await();
        actors.add(a);
        String visible = a.call(x -> x.env("CUDA_VISIBLE_DEVICES")).await();
        String fib = a.call(x -> x.readFile("/proc/net/fib_trie")).await();
        System.out.printf("ACTOR i=%d job=%s worker=%s gpus=%s cvd=%s pid=%d addresses=%s%n", i, a.jobId(), a.workerId(),
            String.join(",", a.gpus()), visible, a.call(Counter::pid).await(), String.join(",", localAddresses(fib)));
      }
      System.out.println("READY");
      System.out.flush();
      for (String line = in.readLine(); line != null && !line.equals("CLOSE"); line = in.readLine()) {
        if (line.equals("TOO_MANY")) {
          long start = System.nanoTime();
          try {
            PlacementGroup more = parl.createGroup(PlacementStrategy.STRICT_SPREAD, bundles(n + 1));
            System.out.printf("HELD id=%s ms=%d%n", more.id(), (System.nanoTime() - start) / 1_000_000);
            more.remove();
          } catch (Exception e) {
            System.out.printf("REFUSED type=%s ms=%d message=%s%n", e.getClass().getSimpleName(),
                (System.nanoTime() - start) / 1_000_000, oneLine(e.getMessage()));
          }
        } else if (line.equals("REMOVE")) {
          group.remove();
          System.out.println("REMOVED " + group.id());
          for (int i = 0; i < actors.size(); i++) {
            try {
              int pid = actors.get(i).call(Counter::pid).await();
              System.out.printf("CALL i=%d answered pid=%d%n", i, pid);
            } catch (Exception e) {
              System.out.printf("CALL i=%d type=%s message=%s%n", i, e.getClass().getSimpleName(), oneLine(e.getMessage()));
            }
          }
        }
        System.out.println("DONE " + line);
        System.out.flush();
      }
    }
    System.out.println("CLOSED");
    System.out.flush();
  }

  private static Bundle[] bundles(int n) {
    return Collections.nCopies(n, Bundle.gpus(1)).toArray(Bundle[]::new);
  }

  private static String join(List<?> values) {
    return values.stream().map(String::valueOf).collect(Collectors.joining(","));
  }

  private static String oneLine(String s) {
    return String.valueOf(s).replace('\n', ' ');
  }

  /**
   * The addresses of the network namespace that read {@code fib}, the kernel's routing tries: each
   * address a line {@code |-- A} followed by {@code /32 host LOCAL}; loopback's left out.
   */
  private static Set<String> localAddresses(String fib) {
    Set<String> out = new TreeSet<>();
    String last = null;
    for (String line : fib.split("\n")) {
      String s = line.strip();
      if (s.startsWith("|-- ")) {
        last = s.substring(4).strip();
      } else if (s.contains("/32 host LOCAL") && last != null && !last.startsWith("127.")) {
        out.add(last);
      }
    }
    return out;
  }
}
