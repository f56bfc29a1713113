package org.parl.it;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.parl.ConnectOptions;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * The user program of {@link RelayIT}, run on a host of its own (its JVM's plain sockets sent
 * through the relay by {@code -DsocksProxyHost}): {@code ADDRESS}. Connects, prints
 * {@code CONNECTED}, then reads commands on its standard input, one a line, each naming an actor by
 * a tag of the test's choosing and answered by a line:
 * <ul>
 *   <li>{@code create TAG}: creates a one-CPU {@link Counter} actor, asks its pid and calls
 *       {@code add(1)} ({@code ACTOR TAG job=J worker=W pid=P added=1});
 *   <li>{@code mark TAG PATH}: calls {@code markThenSleep(PATH, 0)};
 *   <li>{@code value TAG}: calls {@code value()};
 *   <li>{@code close TAG}: closes the actor ({@code CLOSED TAG}).
 * </ul>
 * A call answers {@code RESULT TAG COMMAND ok VALUE}, or {@code RESULT TAG COMMAND failed
 * EXCEPTION-CLASS MESSAGE}; each waits at most 30 s. Closes the client and ends when its input closes.
 */
public final class RelayedClient {

  private static final long WAIT_S = 30;

  private RelayedClient() {}

  public static void main(String[] args) throws Exception {
    ParlClient parl = Parl.connect(new ConnectOptions(args[0]).setResourceWaitTimeout(Duration.ofSeconds(60)));
    System.out.println("CONNECTED");
    Map<String, RemoteActor<Counter>> actors = new HashMap<>();
    BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = commands.readLine(); line != null; line = commands.readLine()) {
      String[] words = line.strip().split(" ", 3);
      String tag = words[1];
      RemoteActor<Counter> a = actors.get(tag);
      switch (words[0]) {
        case "create" -> {
          RemoteActor<Counter> actor = parl.actor(Counter.class, CounterImpl.class).createAsync().await();
          actors.put(tag, actor);
          int pid = actor.call(Counter::pid).await(WAIT_S, TimeUnit.SECONDS);
          int added = actor.call(c -> c.add(1)).await(WAIT_S, TimeUnit.SECONDS);
          System.out.printf("ACTOR %s job=%s worker=%s pid=%d added=%d%n", tag, actor.jobId(), actor.workerId(), pid, added);
        }
        case "mark" -> result(tag, "mark", () -> {
          a.run(c -> c.markThenSleep(words[2], 0)).await(WAIT_S, TimeUnit.SECONDS);
          return "marked";
        });
        case "value" -> result(tag, "value", () -> a.call(Counter::value).await(WAIT_S, TimeUnit.SECONDS));
        case "close" -> {
          actors.remove(tag).close();
          System.out.println("CLOSED " + tag);
        }
        default -> System.out.println("UNKNOWN " + line);
      }
    }
    parl.close();
  }

  private static void result(String tag, String command, Callable<Object> call) {
    String outcome;
    try {
      outcome = "ok " + call.call();
    } catch (Exception e) {
      outcome = "failed " + e.getClass().getName() + " " + e.getMessage();
    }
    System.out.println("RESULT " + tag + " " + command + " " + outcome);
  }
}
