package org.parl.wire;

import java.util.Map;

/**
 * The messages of a job process's reuse on its control link with its worker (JSON lines, one
 * object each, told apart by {@code op}): after a clean close the job says {@link Released}, the
 * worker answers {@link Renew} (fresh data-port TLS identity) or stops the process, and the job
 * either says {@code ready} again with a fresh port and credential, or {@link NotReused} and exits.
 */
public final class JobReuse {

  private static final String OP = "op";

  private JobReuse() {}

  /** The job's actor was closed by its client; {@code calls} it served in all. */
  public record Released(long calls) {
    public static final String OP_NAME = "released";

    public Map<String, Object> toMap() {
      return Map.of(OP, OP_NAME, "calls", calls);
    }

    /** The message, or null when {@code msg} is not one. */
    public static Released of(Map<String, ?> msg) {
      return OP_NAME.equals(msg.get(OP)) && msg.get("calls") instanceof Number n ? new Released(n.longValue()) : null;
    }
  }

  /**
   * The worker keeps the process for another actor; {@code dataLine} is its data port's new
   * setting: {@code plain}, or {@code tls base64(PKCS#8 key) base64(certificate)}, a key made for
   * this actor alone.
   */
  public record Renew(String dataLine) {
    public static final String OP_NAME = "renew";

    public Map<String, Object> toMap() {
      return Map.of(OP, OP_NAME, "data", dataLine);
    }

    public static Renew of(Map<String, ?> msg) {
      return OP_NAME.equals(msg.get(OP)) && msg.get("data") instanceof String s ? new Renew(s) : null;
    }
  }

  /** The job found that its previous actor left something behind, and exits. */
  public record NotReused(String why) {
    public static final String OP_NAME = "notReused";

    public Map<String, Object> toMap() {
      return Map.of(OP, OP_NAME, "why", why);
    }

    public static NotReused of(Map<String, ?> msg) {
      return OP_NAME.equals(msg.get(OP)) && msg.get("why") instanceof String s ? new NotReused(s) : null;
    }
  }
}
