package org.parl.tls;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import org.bouncycastle.asn1.ASN1Encoding;
import org.bouncycastle.asn1.ASN1Integer;
import org.bouncycastle.asn1.DERSequence;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.bouncycastle.operator.ContentSigner;

/**
 * ECDSA with SHA-256 and a deterministic nonce (RFC 6979), so that every node signs the cluster
 * certificate to the same bytes. JCA's ECDSA picks a random nonce, which would give each node a
 * different certificate for the same key.
 */
final class DeterministicEcdsaSigner implements ContentSigner {

  private final ECPrivateKeyParameters key;
  private final ByteArrayOutputStream data = new ByteArrayOutputStream();

  DeterministicEcdsaSigner(ECPrivateKeyParameters key) {
    this.key = key;
  }

  @Override
  public AlgorithmIdentifier getAlgorithmIdentifier() {
    return new AlgorithmIdentifier(X9ObjectIdentifiers.ecdsa_with_SHA256);
  }

  @Override
  public OutputStream getOutputStream() {
    return data;
  }

  @Override
  public byte[] getSignature() {
    SHA256Digest digest = new SHA256Digest();
    byte[] bytes = data.toByteArray();
    digest.update(bytes, 0, bytes.length);
    byte[] hash = new byte[digest.getDigestSize()];
    digest.doFinal(hash, 0);
    ECDSASigner signer = new ECDSASigner(new HMacDSAKCalculator(new SHA256Digest()));
    signer.init(true, key);
    BigInteger[] rs = signer.generateSignature(hash);
    try {
      return new DERSequence(new ASN1Integer[] {new ASN1Integer(rs[0]), new ASN1Integer(rs[1])}).getEncoded(ASN1Encoding.DER);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
