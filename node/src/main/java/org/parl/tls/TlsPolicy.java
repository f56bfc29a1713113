package org.parl.tls;

import java.util.List;
import java.util.Set;

/**
 * Which TLS versions and cipher suites parl's servers and clients accept. Between parl's own
 * parties (the gateway, the event bus, the data path) both ends are parl: TLS 1.3 only. The monitor
 * also serves browsers, curl and Prometheus: TLS 1.2 or 1.3, with AEAD suites and forward secrecy
 * only (no CBC, no static RSA key exchange).
 */
public final class TlsPolicy {

  /** What parl's own parties speak to each other. */
  public static final Set<String> PARL_PROTOCOLS = Set.of("TLSv1.3");

  /** What the monitor accepts. */
  public static final Set<String> MONITOR_PROTOCOLS = Set.of("TLSv1.2", "TLSv1.3");

  /** The monitor's cipher suites: every TLS 1.3 suite, and the ECDHE AEAD suites of TLS 1.2 for ECDSA and RSA keys. */
  public static final List<String> MONITOR_CIPHER_SUITES = List.of(
      "TLS_AES_128_GCM_SHA256",
      "TLS_AES_256_GCM_SHA384",
      "TLS_CHACHA20_POLY1305_SHA256",
      "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
      "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
      "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
      "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
      "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
      "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

  private TlsPolicy() {}
}
