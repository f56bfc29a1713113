package org.parl.bench;

import java.nio.file.Path;
import java.util.Locale;
import org.parl.ConnectOptions;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.RemoteActor;

/**
 * A fresh JVM that connects to a cluster the way a user's program does, so that class loading and
 * JIT start-up count: it prints how long {@link Parl#connect(String)} took, then how long the first
 * actor creation and the first call took, and exits. Arguments: the master's address, and the
 * cluster's token file when the token is not where users keep it.
 *
 * <p>Output: {@code parl bench probe connected} as soon as connected, then
 * {@code parl bench probe: connectMs=.. createMs=.. firstCallMs=..}. On success it closes its client
 * and returns from {@code main}, as a user's program does, so that its parent can time the exit; on a
 * failure it exits 1.
 */
public final class ConnectProbe {

  private ConnectProbe() {}

  public static void main(String[] args) {
    int code = 0;
    try {
      long t0 = System.nanoTime();
      ConnectOptions options = new ConnectOptions(args[0]).setTokenFile(args.length > 1 ? Path.of(args[1]) : null);
      try (ParlClient parl = Parl.connect(options)) {
        long t1 = System.nanoTime();
        System.out.println("parl bench probe connected");
        System.out.flush();
        RemoteActor<BenchActor> actor = parl.actor(BenchActor.class, BenchActorImpl.class).createAsync().await();
        long t2 = System.nanoTime();
        actor.proxy().noop();
        long t3 = System.nanoTime();
        System.out.printf(Locale.ROOT, "parl bench probe: connectMs=%.3f createMs=%.3f firstCallMs=%.3f%n",
            (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6);
      }
    } catch (Throwable e) {
      System.out.println("parl bench probe failed: " + e);
      code = 1;
    }
    System.out.flush();
    if (code != 0) {
      System.exit(code);
    }
  }
}
