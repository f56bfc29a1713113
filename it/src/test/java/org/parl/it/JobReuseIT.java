package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.DataAuth;
import org.parl.internal.wire.Frames;
import org.parl.it.actors.Reusable;
import org.parl.it.actors.ReusableImpl;

/**
 * A job process whose actor was closed cleanly serves the next actor, and shows nothing of the
 * previous one; one whose actor left something behind, was killed or had a memory limit is
 * replaced. One CPU, so each new actor needs the process the last one used.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JobReuseIT {

  private static final Duration WAIT = Duration.ofSeconds(30);

  private TestCluster cluster;
  private ParlClient parl;

  @BeforeAll
  void start() throws Exception {
    cluster = TestCluster.start(0, "--cpus", "1");
  }

  @AfterAll
  void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  @BeforeEach
  void connect() throws Exception {
    cluster.awaitIdle();
    parl = cluster.connect();
  }

  @AfterEach
  void disconnect() {
    parl.close();
  }

  @Test
  void aCleanlyClosedActorsProcessServesTheNextActorWithNothingOfIt() throws Exception {
    RemoteActor<Reusable> first = parl.actor(Reusable.class, ReusableImpl.class).createAsync().await();
    long pid = first.call(Reusable::pid).await();
    int cleanBefore = ReuseLines.cleanCount(cluster.master, pid);
    assertEquals(1, first.call(Reusable::bumpStatic).await());
    assertEquals(2, first.call(Reusable::bumpStatic).await());
    first.run(x -> x.write("left-by-first.txt", "first")).await();
    assertTrue(first.call(x -> x.exists("left-by-first.txt")).await());
    first.close();
    ReuseLines.awaitClean(cluster.master, pid, cleanBefore + 1);

    RemoteActor<Reusable> second = parl.actor(Reusable.class, ReusableImpl.class).createAsync().await();
    assertEquals(pid, second.call(Reusable::pid).await(), "the second actor runs in the first one's process");
    assertEquals(1, second.call(Reusable::bumpStatic).await(), "the first actor's static counter is not visible");
    assertFalse(second.call(x -> x.exists("left-by-first.txt")).await(), "the working directory is fresh");
    // each actor's output is in its own job's log (the worker routes the process's one pipe)
    String mark = "printed by the second actor in process " + pid;
    second.run(x -> x.print(mark)).await();
    Path secondLog = Await.until("the second actor's line in a job log", WAIT, () -> logWith(mark), p -> p != null);
    Path firstLog = logWith("job " + first.jobId() + " assigned");
    assertTrue(firstLog != null && !firstLog.equals(secondLog), "the first job's log " + firstLog + " is not the second's " + secondLog);
    assertTrue(Files.readString(secondLog).contains("job " + second.jobId() + " assigned"), Files.readString(secondLog));
    second.close();
    ReuseLines.awaitClean(cluster.master, pid, cleanBefore + 2);
  }

  /** The job log under the cluster's home that holds {@code text}, or null. */
  private Path logWith(String text) throws IOException {
    try (Stream<Path> files = Files.walk(cluster.home.resolve("workers"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".log")).toList()) {
        if (Files.readString(f).contains(text)) {
          return f;
        }
      }
      return null;
    }
  }

  @Test
  void aProcessWhoseActorLeftAThreadIsReplaced() throws Exception {
    RemoteActor<Reusable> first = parl.actor(Reusable.class, ReusableImpl.class).createAsync().await();
    long pid = first.call(Reusable::pid).await();
    first.run(Reusable::leaveThread).await();
    first.close();
    Matcher why = cluster.master.awaitLine("job process \\S+ \\(pid " + pid + "\\) is not reused: (.*)", WAIT);
    assertTrue(why.group(1).contains("class loader") || why.group(1).contains("left-behind"), why.group(1));
    Await.exited(pid, WAIT, "the dirty job process " + pid);
    RemoteActor<Reusable> second = parl.actor(Reusable.class, ReusableImpl.class).createAsync().await();
    assertNotEquals(pid, second.call(Reusable::pid).await());
    assertEquals(1, second.call(Reusable::bumpStatic).await());
    second.close();
  }

  @Test
  void killedOrMemoryLimitedProcessesAreNotReused() throws Exception {
    RemoteActor<Reusable> killed = parl.actor(Reusable.class, ReusableImpl.class).createAsync().await();
    long killedPid = killed.call(Reusable::pid).await();
    ProcessHandle.of(killedPid).orElseThrow().destroyForcibly();
    Await.exited(killedPid, WAIT, "the killed job process");
    killed.close();
    cluster.awaitIdle();

    RemoteActor<Reusable> limited = parl.actor(Reusable.class, ReusableImpl.class).maxMemoryMb(256).createAsync().await();
    long limitedPid = limited.call(Reusable::pid).await();
    assertNotEquals(killedPid, limitedPid);
    limited.close();
    Await.exited(limitedPid, WAIT, "the memory-limited job process after its close");

    RemoteActor<Reusable> next = parl.actor(Reusable.class, ReusableImpl.class).createAsync().await();
    long pid = next.call(Reusable::pid).await();
    assertNotEquals(killedPid, pid);
    assertNotEquals(limitedPid, pid);
    next.close();
  }

  @Test
  void thePreviousClientsCredentialIsRefusedByTheNextActor() throws Exception {
    ClusterToken token = ClusterToken.of(cluster.token(), "test");
    RawJob old = RawJob.create(cluster.address, token);
    int cleanBefore = ReuseLines.cleanCount(cluster.master, old.pid);
    try (Socket s = old.connect(false)) {
      RawJob.Sealed c = old.open(s);
      Frames.write(c.out(), Frames.CLOSE, 2, new byte[0]);
      assertEquals(Frames.RESULT, Frames.read(c.in()).type(), "the close is answered");
    }
    old.awaitEnded();
    old.close();
    ReuseLines.awaitClean(cluster.master, old.pid, cleanBefore + 1);
    cluster.awaitIdle();

    try (RawJob next = RawJob.create(cluster.address, token)) {
      assertEquals(old.pid, next.pid, "the next job runs in the same process");
      assertNotEquals(old.secret.hex(), next.secret.hex(), "a fresh credential for the next actor");
      try (Socket s = next.connect(false)) {
        String refused = RawJob.message(RawJob.hello(s, old.secret, old.nonce, DataAuth.NO_FINGERPRINT));
        assertTrue(refused.startsWith(DataAuth.REFUSED), refused);
      }
      try (Socket s = next.connect(false)) {
        assertEquals(Frames.RESULT, RawJob.hello(s, next.secret, next.nonce, DataAuth.NO_FINGERPRINT).type(), "its own client gets in");
      }
    }
  }

  @Test
  void withEncryptedDataTheNextActorGetsAFreshTlsKeyToo() throws Exception {
    try (TestCluster tls = TestCluster.start(0, "--cpus", "1", "--encrypt-data")) {
      ClusterToken token = ClusterToken.of(tls.token(), "test");
      RawJob old = RawJob.create(tls.address, token);
      int cleanBefore = ReuseLines.cleanCount(tls.master, old.pid);
      byte[] oldFingerprint;
      try (Socket s = old.connect(true)) {
        oldFingerprint = fingerprint(s);
        assertEquals(Frames.RESULT, RawJob.hello(s, old.secret, old.nonce, oldFingerprint).type());
        Frames.write(s.getOutputStream(), Frames.CLOSE, 2, new byte[0]);
        assertEquals(Frames.RESULT, Frames.read(new DataInputStream(s.getInputStream())).type(), "the close is answered");
      }
      old.awaitEnded();
      old.close();
      ReuseLines.awaitClean(tls.master, old.pid, cleanBefore + 1);
      tls.awaitIdle();

      try (RawJob next = RawJob.create(tls.address, token)) {
        assertEquals(old.pid, next.pid, "the next job runs in the same process");
        try (Socket s = next.connect(true)) {
          byte[] newFingerprint = fingerprint(s);
          assertFalse(Arrays.equals(oldFingerprint, newFingerprint), "the data port shows a new certificate");
          String refused = RawJob.message(RawJob.hello(s, old.secret, old.nonce, newFingerprint));
          assertTrue(refused.startsWith(DataAuth.REFUSED), refused);
        }
        try (Socket s = next.connect(true)) {
          assertEquals(Frames.RESULT, RawJob.hello(s, next.secret, next.nonce, fingerprint(s)).type(), "its own client gets in");
        }
      }
    }
  }

  private static byte[] fingerprint(Socket s) throws Exception {
    return DataAuth.fingerprint(((SSLSocket) s).getSession().getPeerCertificates()[0]);
  }
}
