package org.parl.wire.gateway;

import java.util.List;
import org.parl.wire.Checks;
import org.parl.wire.Required;

/**
 * A job placed for a client: what the JobCenter granted and where the job process listens. The
 * client connects to {@code host:port} and proves itself with {@code token}.
 *
 * @param gpuShare thousandths of each of its GPUs it holds: 1000 when whole, 1..999 for a share, 0 for a
 *     memory budget alone or a CPU job
 * @param gpuMemoryMb its GPU memory budget on each GPU, or 0
 */
public record JobPlacement(
    String jobId,
    String clientId,
    String workerId,
    String actorClass,
    int cpus,
    List<Integer> gpus,
    int gpuShare,
    long gpuMemoryMb,
    int maxMemoryMb,
    long createdAt,
    String host,
    @Required int port,
    String token,
    long pid,
    String slot) {

  public JobPlacement {
    Checks.name("jobId", jobId);
    Checks.name("clientId", clientId);
    Checks.name("workerId", workerId);
    Checks.name("actorClass", actorClass);
    Checks.range("cpus", cpus, 0, 1 << 20);
    gpus = Checks.ids("gpus", gpus, 1024);
    Checks.range("gpuShare", gpuShare, 0, 1000);
    Checks.range("gpuMemoryMb", gpuMemoryMb, 0, 1L << 40);
    Checks.range("maxMemoryMb", maxMemoryMb, 0, 1 << 24);
    Checks.name("host", host);
    Checks.range("port", port, 1, 65535);
    Checks.name("token", token);
    Checks.name("slot", slot);
  }
}
