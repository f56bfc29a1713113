package org.parl.tls;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.PfxOptions;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Date;
import java.util.HexFormat;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.security.SignedRecords;

/**
 * The TLS identity of a cluster, derived from its token alone, so that users copy one file to a
 * new host and never run keytool or openssl (docs/contract.md §9). For the event bus, every node derives the
 * same P-256 key and the same self-signed certificate, byte for byte (the signature is
 * deterministic, RFC 6979), and trusts exactly that certificate: a peer without the token can
 * neither present it nor accept it. For the servers users reach (the monitor, the gateway), the
 * token also gives the cluster's certificate authority ({@link #authority()}).
 */
public final class ClusterKeys {

  private static final X500Name NAME = new X500Name("CN=parl cluster");

  private final X509Certificate certificate;
  private final byte[] keyStore;
  private final byte[] trustStore;
  private final String password;
  private final SignedRecords records;
  private final ClusterAuthority authority;

  private ClusterKeys(X509Certificate certificate, byte[] keyStore, byte[] trustStore, String password,
      SignedRecords records, ClusterAuthority authority) {
    this.records = records;
    this.authority = authority;
    this.certificate = certificate;
    this.keyStore = keyStore;
    this.trustStore = trustStore;
    this.password = password;
  }

  /** Derives the cluster's key pair and certificate from its token (a few milliseconds). */
  public static ClusterKeys derive(ClusterToken token) {
    try {
      DerivedEcKey key = DerivedEcKey.of(token.derive("parl tls key v1"));
      PrivateKey privateKey = key.privateKey();
      BigInteger serial = new BigInteger(1, token.derive("parl tls serial v1")).shiftRight(128);
      X509CertificateHolder holder = new JcaX509v3CertificateBuilder(NAME, serial,
          Date.from(Instant.parse("2020-01-01T00:00:00Z")), Date.from(Instant.parse("2120-01-01T00:00:00Z")),
          NAME, key.publicKey())
          .build(key.signer());
      X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(holder);

      String password = HexFormat.of().formatHex(token.derive("parl tls store v1"));
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      ks.setKeyEntry("parl", privateKey, password.toCharArray(), new Certificate[] {certificate});
      KeyStore ts = KeyStore.getInstance("PKCS12");
      ts.load(null, null);
      ts.setCertificateEntry("parl", certificate);
      return new ClusterKeys(certificate, store(ks, password), store(ts, password), password,
          new SignedRecords(token.derive("parl map records v1")), ClusterAuthority.derive(token));
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot derive the cluster's TLS keys: " + e.getMessage(), e);
    }
  }

  private static byte[] store(KeyStore ks, String password) throws GeneralSecurityException, IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ks.store(out, password.toCharArray());
    return out.toByteArray();
  }

  /** The key and certificate a node presents (servers and, for client authentication, clients). */
  public PfxOptions keyCert() {
    return new PfxOptions().setValue(Buffer.buffer(keyStore)).setPassword(password);
  }

  /** Trusts the cluster's certificate and nothing else. */
  public PfxOptions trust() {
    return new PfxOptions().setValue(Buffer.buffer(trustStore)).setPassword(password);
  }

  /** Signs and checks the records of the cluster maps, under a key derived from the token. */
  public SignedRecords records() {
    return records;
  }

  /**
   * The cluster's certificate authority, also derived from the token, which issues the certificates
   * the nodes' HTTPS and gateway servers present (the event bus keeps {@link #certificate()}).
   */
  public ClusterAuthority authority() {
    return authority;
  }

  /** The event bus's certificate: every node presents it and trusts it alone. */
  public X509Certificate certificate() {
    return certificate;
  }

  /** SHA-256 of the certificate, which the gateway's authentication binds to (see the gateway). */
  public byte[] fingerprint() {
    return Fingerprints.sha256(certificate);
  }
}
