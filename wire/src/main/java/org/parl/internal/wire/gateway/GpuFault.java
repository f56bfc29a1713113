package org.parl.internal.wire.gateway;

import org.parl.internal.wire.Checks;

/**
 * A GPU that turned unhealthy, as the JobCenter tells the clients of the jobs it stopped on it.
 *
 * @param index the GPU's index on its worker
 * @param uuid its UUID, or null when the worker did not know it
 * @param fault what is wrong, such as {@code uncorrected volatile ECC errors: 2}
 */
public record GpuFault(String workerId, int index, String uuid, String fault) {
  public GpuFault {
    Checks.name("workerId", workerId);
    Checks.range("index", index, 0, Checks.MAX_ID);
    uuid = Checks.text("uuid", uuid, Checks.MAX_STRING);
    fault = Checks.text("fault", Checks.present("fault", fault), Checks.MAX_TEXT);
  }

  /** The GPU and its fault in words, for a log line or an exception's message. */
  public String describe() {
    return "GPU " + index + (uuid == null || uuid.isEmpty() ? "" : " (" + uuid + ")") + " of worker " + workerId
        + " is faulty: " + fault;
  }
}
