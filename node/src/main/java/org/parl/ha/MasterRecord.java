package org.parl.ha;

import io.vertx.core.json.JsonObject;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Optional;
import org.parl.internal.security.ClusterToken;

/**
 * A master's entry in the cluster map {@value org.parl.cluster.Addresses#MASTERS_MAP}, signed with
 * the cluster token: open-source Hazelcast lets any member write any map, so a member that learnt
 * the cluster name but lacks the token cannot pose as a master (its entry fails the check and is
 * ignored by the election).
 *
 * @param memberId the master's Hazelcast member UUID
 * @param address its gateway, {@code host:port}
 * @param monitorUrl its web monitor
 */
public record MasterRecord(String memberId, String address, String monitorUrl) {

  /** The entry as stored: the fields and their signature. */
  public String sign(ClusterToken token) {
    return new JsonObject().put("memberId", memberId).put("address", address).put("monitorUrl", monitorUrl)
        .put("signature", HexFormat.of().formatHex(mac(token))).encode();
  }

  /** The record in {@code json} if its signature is the token's, else empty (also for malformed entries). */
  public static Optional<MasterRecord> verify(String json, ClusterToken token) {
    try {
      JsonObject o = new JsonObject(json);
      MasterRecord r = new MasterRecord(o.getString("memberId"), o.getString("address"), o.getString("monitorUrl", ""));
      byte[] signature = HexFormat.of().parseHex(o.getString("signature", ""));
      return r.memberId != null && r.address != null && MessageDigest.isEqual(signature, r.mac(token))
          ? Optional.of(r) : Optional.empty();
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private byte[] mac(ClusterToken token) {
    // lengths first, so that no two different records sign the same text
    String text = "parl master record " + memberId.length() + ":" + memberId + address.length() + ":" + address
        + monitorUrl.length() + ":" + monitorUrl;
    return token.derive(text);
  }
}
