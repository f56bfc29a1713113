package org.parl.job;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.X509ExtendedKeyManager;
import org.parl.internal.wire.DataAuth;

/**
 * The TLS identity of a job's data port with {@code --encrypt-data}: a key and a self-signed
 * certificate its worker made for this process alone. Nobody needs to trust the certificate: the
 * client binds its proof to the certificate's fingerprint ({@link DataAuth}).
 */
record TlsIdentity(PrivateKey key, X509Certificate certificate) {

  private static final String PROTOCOL = "TLSv1.3";

  static TlsIdentity decode(String key, String certificate) throws IOException {
    try {
      Base64.Decoder b64 = Base64.getDecoder();
      X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
          .generateCertificate(new ByteArrayInputStream(b64.decode(certificate)));
      PrivateKey k = KeyFactory.getInstance(cert.getPublicKey().getAlgorithm())
          .generatePrivate(new PKCS8EncodedKeySpec(b64.decode(key)));
      return new TlsIdentity(k, cert);
    } catch (GeneralSecurityException | IllegalArgumentException | ClassCastException e) {
      throw new IOException("the worker handed over an unusable TLS identity: " + e.getMessage(), e);
    }
  }

  /** SHA-256 of the certificate, which both sides' proofs are bound to. */
  byte[] fingerprint() {
    return DataAuth.fingerprint(certificate);
  }

  /** An unbound server socket that speaks TLS 1.3 with this identity; handshakes happen on first use of a connection. */
  ServerSocket serverSocket() throws IOException {
    try {
      SSLContext ctx = SSLContext.getInstance(PROTOCOL);
      ctx.init(new KeyManager[] {new OneKey(key, certificate)}, null, null);
      SSLServerSocket s = (SSLServerSocket) ctx.getServerSocketFactory().createServerSocket();
      s.setEnabledProtocols(new String[] {PROTOCOL});
      s.setNeedClientAuth(false);
      return s;
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot set up TLS on the data port: " + e.getMessage(), e);
    }
  }

  /** Presents one key and its certificate as a server; never acts as a client. */
  private static final class OneKey extends X509ExtendedKeyManager {

    private static final String ALIAS = "job";
    private final PrivateKey key;
    private final X509Certificate certificate;

    OneKey(PrivateKey key, X509Certificate certificate) {
      this.key = key;
      this.certificate = certificate;
    }

    private String alias(String keyType) {
      return key.getAlgorithm().equals(keyType) ? ALIAS : null;
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
      return alias(keyType) == null ? null : new String[] {ALIAS};
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
      return alias(keyType);
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
      return alias(keyType);
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
      return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
      return null;
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
      return ALIAS.equals(alias) ? new X509Certificate[] {certificate} : null;
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
      return ALIAS.equals(alias) ? key : null;
    }
  }
}
