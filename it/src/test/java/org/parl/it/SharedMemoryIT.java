package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.parl.ActorLostException;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.internal.wire.SharedArea;
import org.parl.it.actors.BigArrays;
import org.parl.it.actors.BigArraysImpl;

/**
 * Large arrays between a client and a job on the same host go through a shared area: every
 * primitive array type comes back equal at sizes around the 64 KiB threshold, in both directions,
 * with concurrent async calls; the job maps the area only as an unlinked file, so nothing is left
 * in the shm directory when the job is SIGKILLed, and when the client is, only its spare area
 * (never written, made ahead for its next create), which the next client on the host removes; a
 * client that closes removes its spare; with shared memory turned off the job maps nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SharedMemoryIT {

  private static final Path SHM = SharedArea.defaultParent(Path.of(System.getProperty("java.io.tmpdir")));
  /** Element counts whose bytes lie around the threshold for every element width, and well above it. */
  private static final int[] BYTES = {SharedArea.MIN_BYTES - 8, SharedArea.MIN_BYTES, SharedArea.MIN_BYTES + 8,
      1 << 20, 3 << 20};

  private TestCluster cluster;
  private ParlClient parl;

  /** Areas this JVM's earlier tests left behind: not this class's to judge. */
  private List<Path> earlier;

  @BeforeAll
  void start() throws Exception {
    earlier = leftBy(ProcessHandle.current().pid());
    cluster = TestCluster.start(0, "--cpus", "3");
    parl = cluster.connect();
  }

  @AfterAll
  void stop() throws Exception {
    if (parl != null) {
      parl.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  /** Areas made by process {@code pid} still in the shm directory. */
  static List<Path> leftBy(long pid) throws IOException {
    try (Stream<Path> s = Files.list(SHM)) {
      return s.filter(p -> p.getFileName().toString().startsWith(SharedArea.PREFIX + pid + "-")).toList();
    }
  }

  /**
   * Asserts that of the areas left by process {@code pid}, none is one a job mapped (those are
   * unlinked as soon as the job maps them): at most the spare made for the next create.
   */
  private void onlyTheSpareLeftBy(long pid, List<String> mappedByJobs) throws IOException {
    List<Path> left = leftBy(pid).stream().filter(p -> !earlier.contains(p)).toList();
    assertTrue(left.size() <= 1, "at most the spare area: " + left);
    for (Path dir : left) {
      assertTrue(mappedByJobs.stream().noneMatch(m -> m.contains(dir.getFileName().toString())),
          "a mapped area's file is gone: " + dir + " in " + mappedByJobs);
    }
  }

  private static float[] floats(int n, Random r) {
    float[] a = new float[n];
    for (int i = 0; i < n; i++) {
      a[i] = r.nextFloat();
    }
    return a;
  }

  @Test
  void everyArrayTypeComesBackEqualThroughTheAreaAndAKilledJobLeavesNothing() throws Exception {
    RemoteActor<BigArrays> actor = parl.actor(BigArrays.class, BigArraysImpl.class).createAsync().await();
    BigArrays a = actor.proxy();
    List<String> mapped = a.sharedMappings();
    assertEquals(1, mapped.size(), "the job maps one area: " + mapped);
    assertTrue(mapped.get(0).endsWith("(deleted)"), "and its file is gone already: " + mapped);
    long me = ProcessHandle.current().pid();
    onlyTheSpareLeftBy(me, mapped);

    Random r = new Random(42);
    for (int bytes : BYTES) {
      float[] f = floats(bytes / 4, r);
      double[] d = r.doubles(bytes / 8).toArray();
      int[] i = r.ints(bytes / 4).toArray();
      long[] l = r.longs(bytes / 8).toArray();
      short[] s = new short[bytes / 2];
      for (int k = 0; k < s.length; k++) {
        s[k] = (short) r.nextInt();
      }
      byte[] b = new byte[bytes];
      r.nextBytes(b);
      String size = bytes + " bytes";
      assertArrayEquals(f, a.floats(f), size);
      assertArrayEquals(d, a.doubles(d), size);
      assertArrayEquals(i, a.ints(i), size);
      assertArrayEquals(l, a.longs(l), size);
      assertArrayEquals(s, a.shorts(s), size);
      assertArrayEquals(b, a.bytes(b), size);
      assertEquals(java.util.Arrays.stream(i).asLongStream().sum(), a.sum(i), "what the job received, " + size);
      float[] g = floats(bytes / 4, r);
      float[] both = java.util.Arrays.copyOf(f, f.length + g.length);
      System.arraycopy(g, 0, both, f.length, g.length);
      assertArrayEquals(both, a.concat(f, g), "two arrays in one call, " + size);
      actor.set("stored", g).await();
      assertArrayEquals(g, actor.get("stored", float[].class).await(), "a field written and read, " + size);
    }

    // concurrent async calls: those that find the area taken go on the socket, all come back right
    List<float[]> sent = new ArrayList<>();
    List<Future<float[]>> answers = new ArrayList<>();
    for (int k = 0; k < 24; k++) {
      float[] x = floats((SharedArea.MIN_BYTES << (k % 5)) / 4 + k, r);
      sent.add(x);
      answers.add(actor.call(z -> z.floats(x)));
    }
    for (int k = 0; k < sent.size(); k++) {
      assertArrayEquals(sent.get(k), answers.get(k).await(30, TimeUnit.SECONDS), "async call " + k);
    }

    int pid = a.pid();
    float[] big = floats(2 << 20, r);
    List<Future<float[]>> pending = new ArrayList<>();
    for (int k = 0; k < 4; k++) {
      pending.add(actor.call(z -> z.floats(big)));
    }
    Signals.send("KILL", List.of((long) pid));
    for (Future<float[]> p : pending) {
      try {
        assertArrayEquals(big, p.await(15, TimeUnit.SECONDS), "answered before the kill");
      } catch (ActorLostException lost) {
        // the normal outcome for a call the kill overtook
      }
    }
    assertThrows(ActorLostException.class, () -> a.floats(big), "a later call");
    Await.exited(pid, Duration.ofSeconds(10), "the killed job");
    onlyTheSpareLeftBy(me, mapped);
    actor.close();
    cluster.awaitIdle();

    int before = leftBy(me).size();
    try (ParlClient other = cluster.connect()) {
      other.actor(BigArrays.class, BigArraysImpl.class).createAsync().await().close();
      Await.until("the other client's spare area", Duration.ofSeconds(10), () -> leftBy(me).size() == before + 1);
    }
    assertEquals(before, leftBy(me).size(), "a client that closes removes its spare area");
    cluster.awaitIdle();
  }

  @Test
  void aKilledClientLeavesNothingInTheShmDirectoryAndItsJobEnds() throws Exception {
    ParlProcess client = cluster.program(SharedMemoryClient.class, cluster.address);
    Matcher ready = client.awaitLine("READY (\\d+) (.*)", TestCluster.START);
    long job = Long.parseLong(ready.group(1));
    assertTrue(ready.group(2).contains(SharedArea.PREFIX + client.pid() + "-"), "its job mapped its area: " + ready.group(2));
    client.kill();
    Await.exited(job, Duration.ofSeconds(15), "the job of the killed client");
    onlyTheSpareLeftBy(client.pid(), List.of(ready.group(2)));
    // the next client that makes an area sweeps those of dead clients
    try (ParlClient other = cluster.connect()) {
      other.actor(BigArrays.class, BigArraysImpl.class).createAsync().await().close();
      Await.until("the dead client's spare area removed", Duration.ofSeconds(10), () -> leftBy(client.pid()).isEmpty());
    }
    cluster.awaitIdle();
  }

  @Test
  void turnedOffArraysKeepToTheSocketAndStillComeBackEqual() throws Exception {
    try (ParlClient plain = cluster.connect(cluster.options().setSharedMemory(false))) {
      RemoteActor<BigArrays> actor = plain.actor(BigArrays.class, BigArraysImpl.class).createAsync().await();
      BigArrays a = actor.proxy();
      assertEquals(List.of(), a.sharedMappings(), "no area offered");
      float[] f = floats(1 << 18, new Random(7));
      assertArrayEquals(f, a.floats(f));
      actor.close();
    }
    cluster.awaitIdle();
  }
}
