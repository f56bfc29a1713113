package org.parl.internal.wire.gateway;

import org.parl.internal.wire.Checks;
import org.parl.internal.wire.Required;

/**
 * A job placed for a client: the job the JobCenter granted, and where its process listens. The
 * client connects to {@code host:port} and proves itself with {@code token} over {@code nonce}, the
 * job's nonce for this client ({@code DataAuth}).
 *
 * @param pid the job process's id on its worker's host
 * @param slot the worker's name for the process
 */
public record JobPlacement(Job job, String host, @Required int port, String token, String nonce, long pid, String slot) {

  public JobPlacement {
    Checks.present("job", job);
    Checks.name("host", host);
    Checks.range("port", port, 1, 65535);
    Checks.name("token", token);
    Checks.hex32("nonce", nonce);
    Checks.name("slot", slot);
  }
}
