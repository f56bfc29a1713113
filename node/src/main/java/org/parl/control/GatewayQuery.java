package org.parl.control;

import org.parl.control.ControlReply.Held;

/** What a master's gateway ({@code parl.gateway.<member>}) is asked by the active JobCenter. */
public sealed interface GatewayQuery extends ControlMessage {

  /**
   * Which jobs its live clients hold or are being placed for: after a master left, the JobCenter stops
   * the jobs that no gateway claims (their client died, or never learnt of them), docs/contract.md §10.
   */
  record ListHeld() implements GatewayQuery, Request<Held> {}
}
