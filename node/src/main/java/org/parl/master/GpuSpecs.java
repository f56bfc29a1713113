package org.parl.master;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.parl.control.JobCenterRequest.RegisterWorker;
import org.parl.internal.wire.gateway.WorkerState.GpuCard;
import org.parl.scheduler.GpuSpec;

/** The GPUs a registering worker lends, as the pool knows them: index, UUID, model and memory from its inventory. */
final class GpuSpecs {

  private GpuSpecs() {}

  /**
   * One spec per lent GPU id; a GPU its inventory does not describe (or describes with a UUID seen
   * twice) is known by its index alone, and takes no memory budget.
   */
  static List<GpuSpec> of(RegisterWorker w) {
    List<GpuSpec> specs = new ArrayList<>(w.gpus().size());
    Set<String> uuids = new HashSet<>();
    for (int id : w.gpus()) {
      GpuCard card = w.gpuDevices().stream().filter(c -> c.index() == id).findFirst().orElse(null);
      if (card == null || card.uuid() == null || card.uuid().isBlank() || !uuids.add(card.uuid())) {
        specs.add(GpuSpec.ofIndex(id));
      } else {
        specs.add(new GpuSpec(id, card.uuid(), card.name(), Math.max(0, card.memoryTotalMb())));
      }
    }
    return specs;
  }
}
