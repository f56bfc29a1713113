package org.parl.internal.wire.gateway;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import org.parl.PlacementStrategy;
import org.parl.internal.resources.GroupRequest;
import org.parl.internal.wire.Checks;

/**
 * A placement group as {@code parl status} and the monitor show it.
 *
 * @param groupId the group's id
 * @param clientId the client that holds it
 * @param strategy where its bundles go
 * @param bundles where each bundle is held, and the actor in it
 */
public record GroupRecord(String groupId, String clientId, PlacementStrategy strategy, List<BundleState> bundles) {

  public GroupRecord {
    Checks.name("groupId", groupId);
    Checks.name("clientId", clientId);
    Checks.present("strategy", strategy);
    bundles = Checks.list("bundles", bundles, GroupRequest.MAX_BUNDLES);
  }

  /**
   * One bundle.
   *
   * @param jobId the job of the actor in it, or null while it is idle
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record BundleState(String workerId, List<Integer> gpus, String jobId) {
    public BundleState {
      Checks.name("workerId", workerId);
      gpus = Checks.ids("gpus", gpus, WorkerState.MAX_GPUS);
      if (jobId != null) {
        Checks.name("jobId", jobId);
      }
    }
  }
}
