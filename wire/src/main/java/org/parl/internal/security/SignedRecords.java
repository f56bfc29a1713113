package org.parl.internal.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Signs and checks the records nodes keep in the cluster maps. Open-source Hazelcast lets any member
 * write any map, so a member that learnt the cluster name but lacks the token could otherwise change
 * what nodes act on (the cluster's {@code encryptData} flag, the records a new active JobCenter
 * rebuilds its pool from, the clients a gateway forgets). Each record is a JSON object stored with
 * one more field last, {@code "signature"}: HMAC-SHA256, under a key derived from the cluster token,
 * of the map's name, the record's key and the record's text before that field (each length-prefixed,
 * so a record cannot be moved to another key or map). The text is cut, not re-encoded, so what is
 * checked is exactly what was signed. A record that is unsigned or wrongly signed is ignored by
 * its reader, said in one log line per map and key.
 */
public final class SignedRecords {

  private static final Logger log = LoggerFactory.getLogger(SignedRecords.class);
  private static final String FIELD = "signature";
  private static final String TAIL_START = "\"" + FIELD + "\":\"";
  private static final int HEX = 64;
  /** Most (map, key) pairs remembered as already reported; past it, reports go on without memory. */
  private static final int MAX_REPORTED = 10_000;

  private final byte[] key;
  private final Set<String> reported = ConcurrentHashMap.newKeySet();

  /** @param key the signing key, derived from the cluster token (see {@code ClusterKeys} on the nodes) */
  public SignedRecords(byte[] key) {
    this.key = key.clone();
  }

  /** {@code json}, a JSON object's text, with its signature for {@code map} and {@code key} added last. */
  public String sign(String map, String key, String json) {
    String body = json.strip();
    if (!body.startsWith("{") || !body.endsWith("}")) {
      throw new IllegalArgumentException("a map record is a JSON object, got: " + body);
    }
    String head = body.substring(0, body.length() - 1).strip();
    String sep = head.equals("{") ? "" : ",";
    return head + sep + TAIL_START + HexFormat.of().formatHex(mac(map, key, head + "}")) + "\"}";
  }

  /**
   * The record's text as it was signed, if {@code stored} carries the right signature for
   * {@code map} and {@code key}; empty otherwise (unsigned, altered, moved, or malformed), which is
   * logged once per map and key.
   */
  public Optional<String> verify(String map, String key, String stored) {
    Optional<String> body = stored == null ? Optional.empty() : check(map, key, stored);
    if (body.isEmpty() && stored != null && (reported.size() >= MAX_REPORTED || reported.add(map + "\0" + key))) {
      log.warn("ignored record '{}' of map {}: it is not signed with the cluster token", key, map);
    }
    return body;
  }

  /** The records of {@code entries} (one map's) that are signed right, each as it was signed. */
  public Map<String, String> verifyAll(String map, Map<String, String> entries) {
    Map<String, String> out = new LinkedHashMap<>();
    entries.forEach((k, v) -> verify(map, k, v).ifPresent(body -> out.put(k, body)));
    return out;
  }

  private Optional<String> check(String map, String key, String stored) {
    // ...,"signature":"<64 hex>"}  or  {"signature":"<64 hex>"}
    int tail = stored.length() - TAIL_START.length() - HEX - 2;
    if (tail < 1 || !stored.startsWith(TAIL_START, tail) || !stored.endsWith("\"}")) {
      return Optional.empty();
    }
    char before = stored.charAt(tail - 1);
    String body;
    if (before == ',') {
      body = stored.substring(0, tail - 1) + "}";
    } else if (before == '{' && tail == 1) {
      body = "{}";
    } else {
      return Optional.empty();
    }
    byte[] claimed;
    try {
      claimed = HexFormat.of().parseHex(stored, tail + TAIL_START.length(), tail + TAIL_START.length() + HEX);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    return MessageDigest.isEqual(claimed, mac(map, key, body)) ? Optional.of(body) : Optional.empty();
  }

  private byte[] mac(String map, String recordKey, String body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      for (String part : new String[] {map, recordKey, body}) {
        byte[] b = part.getBytes(StandardCharsets.UTF_8);
        mac.update(new byte[] {(byte) (b.length >>> 24), (byte) (b.length >>> 16), (byte) (b.length >>> 8), (byte) b.length});
        mac.update(b);
      }
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this Java runtime", e);
    }
  }
}
