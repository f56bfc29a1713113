package org.parl.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.InvalidAlgorithmParameterException;
import java.security.cert.CertPathValidator;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.parl.internal.security.ClusterToken;

class ClusterAuthorityTest {

  private static final ClusterAuthority A = ClusterAuthority.derive(ClusterToken.of("a".repeat(64), "test"));
  private static final ClusterAuthority B = ClusterAuthority.derive(ClusterToken.of("b".repeat(64), "test"));

  @Test
  void everyNodeDerivesTheSameCaFromTheSameTokenAndItIsACa() throws Exception {
    ClusterAuthority again = ClusterAuthority.derive(ClusterToken.of("a".repeat(64), "elsewhere"));
    assertArrayEquals(A.certificate().getEncoded(), again.certificate().getEncoded());
    assertEquals(A.pem(), again.pem());
    assertFalse(java.util.Arrays.equals(A.fingerprint(), B.fingerprint()));
    assertEquals(0, A.certificate().getBasicConstraints(), "a CA that issues end certificates only");
    assertTrue(A.certificate().getKeyUsage()[5], "keyCertSign");
    A.certificate().verify(A.certificate().getPublicKey());
    X509Certificate read = (X509Certificate) CertificateFactory.getInstance("X.509")
        .generateCertificate(new ByteArrayInputStream(A.pem().getBytes(StandardCharsets.US_ASCII)));
    assertEquals(A.certificate(), read, "the PEM holds the certificate");
  }

  @Test
  void aNodeCertificateNamesWhatTheNodeServesAndChainsToTheCa() throws Exception {
    NodeCertificate node = A.issue(new ServedNames(List.of("node-1.lab", "localhost"), List.of("10.77.0.5", "127.0.0.1")));
    X509Certificate leaf = node.certificate();
    Set<String> names = new HashSet<>();
    leaf.getSubjectAlternativeNames().forEach(n -> names.add(n.get(0) + "=" + n.get(1)));
    assertEquals(Set.of("2=node-1.lab", "2=localhost", "7=10.77.0.5", "7=127.0.0.1"), names);
    assertEquals(-1, leaf.getBasicConstraints(), "not a CA");
    assertTrue(leaf.getExtendedKeyUsage().contains("1.3.6.1.5.5.7.3.1"), "serverAuth");
    assertEquals(List.of(leaf, A.certificate()), node.chain());
    validate(leaf, A);
    assertThrows(CertPathValidatorException.class, () -> validate(leaf, B), "another cluster's CA does not verify it");
    assertFalse(java.util.Arrays.equals(node.fingerprint(), A.issue(ServedNames.of("127.0.0.1")).fingerprint()),
        "each node has a key of its own");
  }

  @Test
  void aNodeBoundToLoopbackServesLocalhostAndBothLoopbackAddresses() {
    ServedNames names = ServedNames.of("127.0.0.1");
    assertTrue(names.ips().containsAll(List.of("127.0.0.1", "0:0:0:0:0:0:0:1")), names.toString());
    assertTrue(names.dns().contains("localhost"), names.toString());
    assertFalse(names.dns().isEmpty());
  }

  private static void validate(X509Certificate leaf, ClusterAuthority ca) throws Exception {
    try {
      PKIXParameters params = new PKIXParameters(Set.of(new TrustAnchor(ca.certificate(), null)));
      params.setRevocationEnabled(false);
      CertPathValidator.getInstance("PKIX").validate(
          CertificateFactory.getInstance("X.509").generateCertPath(List.of(leaf)), params);
    } catch (InvalidAlgorithmParameterException e) {
      throw new AssertionError(e);
    }
  }
}
