package org.parl.tls;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.parl.internal.security.ClusterToken;

/**
 * The cluster's certificate authority, derived from the token like the rest of its TLS identity:
 * every node computes the same CA key and the same CA certificate, byte for byte, and issues its
 * own HTTPS and gateway certificate with it, naming the addresses it serves ({@link ServedNames}).
 * Whoever trusts the CA certificate ({@code bin/parl cert} writes it) verifies every node's server
 * without a skip flag; only holders of the token can issue such certificates.
 */
public final class ClusterAuthority {

  /** How long a node's certificate is valid; it is issued afresh at every start. */
  static final Duration NODE_VALIDITY = Duration.ofDays(397);
  /** Clocks of the hosts in a cluster differ a little: a new certificate is valid from a while ago. */
  private static final Duration CLOCK_SKEW = Duration.ofHours(1);

  private final DerivedEcKey key;
  private final X500Name name;
  private final X509Certificate certificate;
  private final JcaX509ExtensionUtils extensions;

  private ClusterAuthority(DerivedEcKey key, X500Name name, X509Certificate certificate, JcaX509ExtensionUtils extensions) {
    this.key = key;
    this.name = name;
    this.certificate = certificate;
    this.extensions = extensions;
  }

  /** Derives the cluster's CA from its token (a few milliseconds). */
  public static ClusterAuthority derive(ClusterToken token) {
    try {
      DerivedEcKey key = DerivedEcKey.of(token.derive("parl tls ca key v1"));
      // the name tells clusters apart in a trust store holding several; it reveals nothing of the token
      X500Name name = new X500Name("CN=parl cluster CA " + HexFormat.of().formatHex(token.derive("parl tls ca name v1"), 0, 4)
          + ",O=parl");
      BigInteger serial = new BigInteger(1, token.derive("parl tls ca serial v1")).shiftRight(128);
      JcaX509ExtensionUtils extensions = new JcaX509ExtensionUtils();
      X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(
          new JcaX509v3CertificateBuilder(name, serial, Date.from(Instant.parse("2020-01-01T00:00:00Z")),
              Date.from(Instant.parse("2120-01-01T00:00:00Z")), name, key.publicKey())
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
              .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
              .addExtension(Extension.subjectKeyIdentifier, false, extensions.createSubjectKeyIdentifier(key.publicKey()))
              .build(key.signer()));
      return new ClusterAuthority(key, name, certificate, extensions);
    } catch (GeneralSecurityException | CertIOException e) {
      throw new IllegalStateException("cannot derive the cluster's certificate authority: " + e.getMessage(), e);
    }
  }

  /** The CA's certificate: what clients trust. */
  public X509Certificate certificate() {
    return certificate;
  }

  /** The CA's certificate as PEM, for {@code curl --cacert}, Prometheus' {@code ca_file} or a browser. */
  public String pem() {
    return Pem.certificates(List.of(certificate));
  }

  /** The SHA-256 fingerprint of the CA's certificate. */
  public byte[] fingerprint() {
    return Fingerprints.sha256(certificate);
  }

  /**
   * Issues a certificate for a new P-256 key of this node's own, for a server reached under
   * {@code names}: valid from an hour ago for {@link #NODE_VALIDITY}, for servers and clients.
   */
  public NodeCertificate issue(ServedNames names) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      KeyPair pair = generator.generateKeyPair();
      List<GeneralName> alt = new ArrayList<>();
      names.dns().forEach(n -> alt.add(new GeneralName(GeneralName.dNSName, n)));
      names.ips().forEach(ip -> alt.add(new GeneralName(GeneralName.iPAddress, ip)));
      String cn = names.dns().isEmpty() ? names.ips().get(0) : names.dns().get(0);
      Instant now = Instant.now();
      byte[] serial = new byte[16];
      new SecureRandom().nextBytes(serial);
      X509Certificate issued = new JcaX509CertificateConverter().getCertificate(
          new JcaX509v3CertificateBuilder(name, new BigInteger(1, serial), Date.from(now.minus(CLOCK_SKEW)),
              Date.from(now.plus(NODE_VALIDITY)), new X500Name("CN=" + cn.replaceAll("[,+=\"\\\\<>;#]", "_")),
              pair.getPublic())
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
              .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
              .addExtension(Extension.extendedKeyUsage, false,
                  new ExtendedKeyUsage(new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}))
              .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(alt.toArray(GeneralName[]::new)))
              .addExtension(Extension.subjectKeyIdentifier, false, extensions.createSubjectKeyIdentifier(pair.getPublic()))
              .addExtension(Extension.authorityKeyIdentifier, false, extensions.createAuthorityKeyIdentifier(certificate))
              .build(key.signer()));
      return new NodeCertificate(pair.getPrivate(), List.of(issued, certificate));
    } catch (GeneralSecurityException | CertIOException e) {
      throw new IllegalStateException("cannot issue this node's certificate: " + e.getMessage(), e);
    }
  }
}
