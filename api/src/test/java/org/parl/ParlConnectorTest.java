package org.parl;

import static org.junit.jupiter.api.Assertions.assertSame;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client is found where the API is not: through the caller's context class loader, as actor code in a job. */
class ParlConnectorTest {

  /** A client that answers every connect with the same failure, so the test sees which one was found. */
  public static final class FakeConnector implements ClientConnector {
    static final ParlException ANSWER = new ParlException("the fake connector answered");

    @Override
    public Future<ParlClient> connect(Vertx vertx, ConnectOptions options) {
      return Future.failedFuture(ANSWER);
    }
  }

  @TempDir
  Path tmp;

  @Test
  void aClientOnlyTheContextClassLoaderSeesIsFound() throws Exception {
    Path services = Files.createDirectories(tmp.resolve("META-INF/services"));
    Files.writeString(services.resolve(ClientConnector.class.getName()), FakeConnector.class.getName() + "\n");
    Thread t = Thread.currentThread();
    ClassLoader before = t.getContextClassLoader();
    try (URLClassLoader libraries = new URLClassLoader(new URL[] {tmp.toUri().toURL()}, Parl.class.getClassLoader())) {
      t.setContextClassLoader(libraries);
      Future<ParlClient> f = Parl.connectAsync(null, new ConnectOptions("127.0.0.1:1"));
      assertSame(FakeConnector.ANSWER, f.cause());
    } finally {
      t.setContextClassLoader(before);
    }
  }
}
