package org.parl.internal.client;

import java.security.GeneralSecurityException;
import java.security.cert.CertificateFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLException;
import org.parl.internal.wire.ProofBoundTls;

/**
 * Sets up the JDK's TLS client ({@link ProofBoundTls}) on a daemon thread while a fresh client reads
 * its token and builds its Vert.x instance and codecs. Without it, the first connection to the master
 * does this one step after the other: the security providers, the handshake's classes and its first
 * key share, ~0.3 s of CPU in a fresh JVM. Best effort: when it fails, or is not done in time, the
 * connection does the same work itself.
 */
final class TlsWarmUp {

  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private TlsWarmUp() {}

  /** Starts the warm-up once per JVM; returns at once. */
  static void start() {
    if (STARTED.compareAndSet(false, true)) {
      Thread t = new Thread(TlsWarmUp::run, "parl-tls-warm-up");
      t.setDaemon(true);
      t.start();
    }
  }

  private static void run() {
    try {
      ProofBoundTls.warmUp();
      CertificateFactory.getInstance("X.509");
    } catch (GeneralSecurityException | SSLException | RuntimeException | LinkageError e) {
      // nothing lost: the first connection sets up the same itself
    }
  }
}
