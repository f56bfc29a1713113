package org.parl.tls;

import java.math.BigInteger;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPrivateKeySpec;
import java.security.spec.ECPublicKeySpec;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.math.ec.ECPoint;
import org.bouncycastle.math.ec.FixedPointCombMultiplier;

/**
 * A P-256 key pair computed from secret bytes (derived from the cluster token), so that every node
 * computes the same key, and a signer that signs with it to the same bytes everywhere.
 */
record DerivedEcKey(PrivateKey privateKey, PublicKey publicKey, ECPrivateKeyParameters signing) {

  private static final String CURVE = "secp256r1";

  static DerivedEcKey of(byte[] seed) throws GeneralSecurityException {
    X9ECParameters curve = CustomNamedCurves.getByName(CURVE);
    BigInteger n = curve.getN();
    BigInteger d = new BigInteger(1, seed).mod(n.subtract(BigInteger.ONE)).add(BigInteger.ONE);
    ECPoint q = new FixedPointCombMultiplier().multiply(curve.getG(), d).normalize();

    AlgorithmParameters params = AlgorithmParameters.getInstance("EC");
    params.init(new ECGenParameterSpec(CURVE));
    ECParameterSpec spec = params.getParameterSpec(ECParameterSpec.class);
    KeyFactory keys = KeyFactory.getInstance("EC");
    PrivateKey privateKey = keys.generatePrivate(new ECPrivateKeySpec(d, spec));
    PublicKey publicKey = keys.generatePublic(new ECPublicKeySpec(
        new java.security.spec.ECPoint(q.getAffineXCoord().toBigInteger(), q.getAffineYCoord().toBigInteger()), spec));
    return new DerivedEcKey(privateKey, publicKey,
        new ECPrivateKeyParameters(d, new ECDomainParameters(curve.getCurve(), curve.getG(), n, curve.getH())));
  }

  /** Signs certificates with this key (ECDSA, SHA-256, deterministic nonce). */
  DeterministicEcdsaSigner signer() {
    return new DeterministicEcdsaSigner(signing);
  }
}
