package org.parl.client;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;

/**
 * Sets up the JDK's TLS client on a daemon thread while a fresh client builds its Vert.x instance.
 * Without it, the first connection to the master does this on the event loop, one step after the
 * other: the security providers, the default context with its trust store (Netty's JDK TLS context
 * makes one to learn the cipher suites), the handshake's classes and its first key share, ~0.3 s in
 * a fresh JVM. Best effort: when it fails, or is not done in time, the connection does the same work
 * itself.
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
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(null, null, null);
      SSLEngine engine = context.createSSLEngine();
      engine.setUseClientMode(true);
      engine.wrap(ByteBuffer.allocate(0), ByteBuffer.allocate(engine.getSession().getPacketBufferSize()));
      CertificateFactory.getInstance("X.509");
    } catch (GeneralSecurityException | SSLException | RuntimeException e) {
      // nothing lost: the first connection sets up the same itself
    }
  }
}
