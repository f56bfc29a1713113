package org.parl.bench;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import org.parl.ConnectOptions;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.RemoteActor;

/**
 * The client program of the rows across hosts ({@link CrossHostBenchmark}), run on another host
 * than the cluster and the echo server: {@code ADDRESS TOKEN_FILE ECHO_HOST ECHO_PORT QUICK}
 * ({@code QUICK}: {@code true} for the {@code --quick} plan). It connects, creates one actor, measures
 * {@link CallBenchmark#runAcrossHosts} next to the plain-TCP echo on {@code ECHO_HOST}, prints each
 * row as {@code parl bench cross-host row <json>}, then {@code parl bench cross-host done}, and exits
 * (status 1, after {@code parl bench cross-host failed: ...}, when something failed).
 */
public final class CrossHostProbe {

  static final String ROW = "parl bench cross-host row ";
  static final String DONE = "parl bench cross-host done";
  static final String FAILED = "parl bench cross-host failed: ";

  private CrossHostProbe() {}

  public static void main(String[] args) {
    int code = 0;
    BenchPlan plan = BenchPlan.of(Boolean.parseBoolean(args[4]));
    Report report = new Report();
    try (ParlClient parl = Parl.connect(new ConnectOptions(args[0]).setTokenFile(Path.of(args[1])));
        TcpEcho tcp = new TcpEcho(InetAddress.getByName(args[2]), Integer.parseInt(args[3]), -1)) {
      RemoteActor<BenchActor> actor = parl.actor(BenchActor.class, BenchActorImpl.class).createAsync().await();
      try {
        new CallBenchmark(plan, List.of(actor), tcp, report).runAcrossHosts();
      } finally {
        actor.close();
      }
      report.metrics().forEach(m -> System.out.println(ROW + m.json().encode()));
      System.out.println(DONE);
    } catch (Throwable e) {
      System.out.println(FAILED + e);
      code = 1;
    }
    System.out.flush();
    System.exit(code);
  }
}
