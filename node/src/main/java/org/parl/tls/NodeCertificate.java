package org.parl.tls;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PemKeyCertOptions;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * A key and the certificate chain a server presents with it, the node's own first: one the cluster
 * authority issued ({@link ClusterAuthority#issue}) or one an operator brought ({@link CertificateFiles}).
 *
 * @param key the private key of {@code chain.get(0)}
 * @param chain the node's certificate, then the certificates that issued it
 */
public record NodeCertificate(PrivateKey key, List<X509Certificate> chain) {

  public NodeCertificate {
    chain = List.copyOf(chain);
    if (chain.isEmpty()) {
      throw new IllegalArgumentException("a certificate chain needs at least the node's certificate");
    }
  }

  /** The node's own certificate. */
  public X509Certificate certificate() {
    return chain.get(0);
  }

  /** The SHA-256 fingerprint of the node's certificate, which the gateway's authentication binds to. */
  public byte[] fingerprint() {
    return Fingerprints.sha256(certificate());
  }

  /** What a Vert.x server presents: the key and the whole chain, as PEM values. */
  public PemKeyCertOptions keyCertOptions() {
    return new PemKeyCertOptions().setKeyValue(Buffer.buffer(Pem.privateKey(key)))
        .setCertValue(Buffer.buffer(Pem.certificates(chain)));
  }
}
