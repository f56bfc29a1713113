package org.parl.demo.groups;

import io.vertx.core.Future;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.parl.Bundle;
import org.parl.ConnectOptions;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.PlacementGroup;
import org.parl.PlacementStrategy;
import org.parl.RemoteActor;
import org.parl.demo.Learner;
import org.parl.demo.LearnerImpl;

/**
 * Two trainings that each need three GPU learners at once, on a cluster of four GPUs: created one actor at
 * a time, each could take two GPUs and wait forever for its third; as placement groups, one holds its three
 * GPUs whole, trains, and gives them back, and then the other does.
 *
 * <pre>{@code
 * bin/parl master --gpu-cluster --port 8010 --nvidia-smi "$(bin/parl fake-gpus 4)" &
 * bin/parl run -cp demo/target/classes org.parl.demo.groups.TwoTrainings 127.0.0.1:8010
 * }</pre>
 */
public final class TwoTrainings {

  private static final int LEARNERS = 3;
  private static final int ROUNDS = 5;

  private TwoTrainings() {}

  public static void main(String[] args) {
    String address = args.length > 0 ? args[0] : "127.0.0.1:8010";
    try (ParlClient parl = Parl.connect(new ConnectOptions().setAddress(address)
        .setResourceWaitTimeout(Duration.ofMinutes(5)))) {
      List<Bundle> learners = Collections.nCopies(LEARNERS, Bundle.gpus(1));
      Future<Void> a = parl.createGroupAsync(PlacementStrategy.PACK, learners).compose(g -> train(parl, "A", g));
      Future<Void> b = parl.createGroupAsync(PlacementStrategy.PACK, learners).compose(g -> train(parl, "B", g));
      Future.all(a, b).await();
      System.out.println("both trainings completed");
    }
  }

  /** One training: a learner in each bundle, a few rounds of sampling, then the group goes back. */
  private static Future<Void> train(ParlClient parl, String name, PlacementGroup group) {
    System.out.println("training " + name + " holds " + group.id() + ": GPUs " + gpus(group));
    List<Future<RemoteActor<Learner>>> created = new ArrayList<>();
    for (int i = 0; i < group.size(); i++) {
      created.add(parl.actor(Learner.class, LearnerImpl.class).inGroup(group, i).createAsync());
    }
    return Future.all(created).compose(all -> {
      Future<Double> estimate = Future.succeededFuture(0.0);
      for (int round = 0; round < ROUNDS; round++) {
        estimate = estimate.compose(x -> Future.all(created.stream().map(f -> f.result().call(l -> l.sample(100_000))).toList())
            .map(r -> r.<Double>list().stream().mapToDouble(Double::doubleValue).average().orElse(0)));
      }
      return estimate;
    }).compose(pi -> {
      System.out.println("training " + name + " estimates pi as " + pi + "; giving back " + group.id());
      return group.removeAsync();
    });
  }

  private static List<List<Integer>> gpus(PlacementGroup group) {
    List<List<Integer>> out = new ArrayList<>();
    for (int i = 0; i < group.size(); i++) {
      out.add(group.gpusOf(i));
    }
    return out;
  }
}
