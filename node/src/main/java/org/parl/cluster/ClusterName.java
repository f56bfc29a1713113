package org.parl.cluster;

import java.util.HexFormat;
import java.util.UUID;
import org.parl.internal.security.ClusterToken;

/**
 * The Hazelcast cluster name of a master's cluster, derived from the token and a random id per
 * master start: nobody without the token can compute it (Hazelcast checks it at join, the only
 * gate open-source Hazelcast has), and two clusters on one host that share a token never merge.
 * The master hands it only to workers and monitors that authenticated at its gateway.
 */
public final class ClusterName {

  /** 128 bits of the HMAC, as hex: enough against guessing, short enough for Hazelcast's logs. */
  private static final int HEX_DIGITS = 32;

  private ClusterName() {}

  /** A fresh id for one master start; never leaves the master. */
  public static String newInstanceId() {
    return UUID.randomUUID().toString();
  }

  /** {@code "parl-" + hex(HMAC(token, "hazelcast cluster name " + masterInstanceId))}, truncated. */
  public static String derive(ClusterToken token, String masterInstanceId) {
    String hex = HexFormat.of().formatHex(token.derive("hazelcast cluster name " + masterInstanceId));
    return "parl-" + hex.substring(0, HEX_DIGITS);
  }
}
