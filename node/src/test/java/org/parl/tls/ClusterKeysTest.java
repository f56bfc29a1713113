package org.parl.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.internal.security.ClusterToken;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterKeysTest {

  private static final ClusterKeys A = ClusterKeys.derive(ClusterToken.of("a".repeat(64), "test"));
  private static final ClusterKeys B = ClusterKeys.derive(ClusterToken.of("b".repeat(64), "test"));

  private Vertx vertx;
  private NetServer server;

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    server = vertx.createNetServer(new NetServerOptions().setHost("127.0.0.1").setPort(0).setSsl(true)
            .setClientAuth(ClientAuth.REQUIRED).setKeyCertOptions(A.keyCert()).setTrustOptions(A.trust()))
        .connectHandler(s -> s.handler(s::write))
        .listen().await(10, TimeUnit.SECONDS);
  }

  @AfterAll
  void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  void everyNodeDerivesTheSameCertificateFromTheSameToken() throws Exception {
    ClusterKeys again = ClusterKeys.derive(ClusterToken.of("a".repeat(64), "elsewhere"));
    assertArrayEquals(A.certificate().getEncoded(), again.certificate().getEncoded());
    assertArrayEquals(A.fingerprint(), again.fingerprint());
    assertFalse(java.util.Arrays.equals(A.fingerprint(), B.fingerprint()));
    A.certificate().verify(A.certificate().getPublicKey());
  }

  private String echo(NetClientOptions options) throws Exception {
    NetClient client = vertx.createNetClient(options.setConnectTimeout(5000));
    try {
      NetSocket s = client.connect(server.actualPort(), "127.0.0.1").await(10, TimeUnit.SECONDS);
      io.vertx.core.Promise<Buffer> got = io.vertx.core.Promise.promise();
      s.handler(got::tryComplete);
      s.closeHandler(v -> got.tryFail("closed"));
      s.write("ping");
      return got.future().await(10, TimeUnit.SECONDS).toString();
    } finally {
      client.close();
    }
  }

  private static NetClientOptions tls(ClusterKeys keys) {
    return new NetClientOptions().setSsl(true).setHostnameVerificationAlgorithm("")
        .setKeyCertOptions(keys.keyCert()).setTrustOptions(keys.trust());
  }

  @Test
  void aNodeWithTheTokenConnects() throws Exception {
    assertEquals("ping", echo(tls(ClusterKeys.derive(ClusterToken.of("a".repeat(64), "peer")))));
  }

  @Test
  void aPeerWithAnotherTokenOrNoCertificateOrNoTlsIsRefused() {
    assertThrows(Exception.class, () -> echo(tls(B)), "another token's certificate");
    assertThrows(Exception.class, () -> echo(new NetClientOptions().setSsl(true).setHostnameVerificationAlgorithm("")
        .setTrustAll(true)), "no client certificate");
    assertThrows(Exception.class, () -> echo(new NetClientOptions()), "plain text");
  }
}
