package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.DataAuth;
import org.parl.internal.wire.Frames;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;

/**
 * docs/contract.md §9 with {@code parl master --encrypt-data}: calls and large arrays travel over TLS, the
 * client's proof is bound to the certificate the job showed, and a job's port says nothing in clear.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EncryptedDataIT {

  private TestCluster cluster;
  private ParlClient parl;

  @BeforeAll
  void start() throws Exception {
    cluster = TestCluster.start(0, "--cpus", "2", "--encrypt-data");
    parl = cluster.connect();
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void callsAndAnEightMegabyteEchoWorkOverTls() throws Exception {
    RemoteActor<Counter> actor = parl.actor(Counter.class, CounterImpl.class).createAsync().await();
    try {
      Counter c = actor.proxy();
      assertEquals(2, c.add(2));
      assertEquals(5, c.add(3));
      List<Future<Integer>> results = new ArrayList<>();
      for (int i = 1; i <= 100; i++) {
        results.add(actor.call(x -> x.add(1)));
      }
      assertEquals(105, Future.all(results).await().<Integer>resultAt(99));
      float[] big = new float[2 << 20];
      for (int i = 0; i < big.length; i++) {
        big[i] = i * 0.5f;
      }
      assertArrayEquals(big, c.echo(big), "an 8 MB array comes back whole");
    } finally {
      actor.close();
    }
    cluster.awaitIdle();
  }

  @Test
  void aJobPortSpeaksOnlyTlsAndBindsProofsToItsCertificate() throws Exception {
    try (RawJob job = RawJob.create(cluster.address, ClusterToken.of(cluster.token(), "test"))) {
      try (Socket plain = job.connect(false)) {
        Frames.write(plain.getOutputStream(), Frames.HELLO, 1, new byte[] {'{', '}'});
        byte[] got = readToEnd(plain.getInputStream());
        assertTrue(got.length < 13 || (got[4] != Frames.RESULT && got[4] != Frames.ERROR), "a plain-text peer gets no answer in clear");
      }
      try (Socket relayed = job.connect(true)) {
        String refusal = RawJob.message(RawJob.hello(relayed, job.secret, job.nonce, DataAuth.NO_FINGERPRINT));
        assertTrue(refusal.startsWith(DataAuth.REFUSED), "a proof not bound to the certificate is refused: " + refusal);
      }
      try (Socket s = job.connect(true)) {
        byte[] fingerprint = DataAuth.fingerprint(((SSLSocket) s).getSession().getPeerCertificates()[0]);
        assertEquals(Frames.RESULT, RawJob.hello(s, job.secret, job.nonce, fingerprint).type(),
            "a proof over the certificate shown is accepted, and the job's own proof verifies");
      }
    }
    cluster.awaitIdle();
  }

  /** Reads until the peer closes (a job closes a connection that failed its handshake within 10 s). */
  private static byte[] readToEnd(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    byte[] buf = new byte[4096];
    try {
      int n = in.read(buf);
      while (n >= 0) {
        b.write(buf, 0, n);
        n = in.read(buf);
      }
    } catch (java.net.SocketException reset) {
      // closed with a reset: as good as closed
    }
    return b.toByteArray();
  }
}
