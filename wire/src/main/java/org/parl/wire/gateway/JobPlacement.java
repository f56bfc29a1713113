package org.parl.wire.gateway;

import java.util.List;
import org.parl.wire.Checks;
import org.parl.wire.Required;

/**
 * A job placed for a client: what the JobCenter granted and where the job process listens. The
 * client connects to {@code host:port} and proves itself with {@code token}.
 */
public record JobPlacement(
    String jobId,
    String clientId,
    String workerId,
    String actorClass,
    int cpus,
    List<Integer> gpus,
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
    Checks.range("maxMemoryMb", maxMemoryMb, 0, 1 << 24);
    Checks.name("host", host);
    Checks.range("port", port, 1, 65535);
    Checks.name("token", token);
    Checks.name("slot", slot);
  }
}
