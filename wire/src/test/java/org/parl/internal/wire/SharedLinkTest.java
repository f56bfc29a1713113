package org.parl.internal.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SharedLinkTest {

  private static final int HALF = 1 << 20;
  private static final Type[] ALL = {String.class, float[].class, double[].class, int[].class, long[].class,
      short[].class, byte[].class};

  @TempDir
  Path dir;

  private final ValueCodec codec = new ValueCodec();
  private SharedLink client;
  private SharedLink job;

  @BeforeEach
  void link() throws IOException {
    client = SharedLink.create(dir, HALF);
    job = SharedLink.open(client.file(), client.size());
  }

  @AfterEach
  void close() {
    client.close();
    job.close();
  }

  /** Elements of each type whose bytes are {@code bytes}, give or take an element. */
  private static Object[] values(int bytes, long seed) {
    Random r = new Random(seed);
    float[] f = new float[bytes / 4];
    double[] d = new double[bytes / 8];
    int[] i = new int[bytes / 4];
    long[] l = new long[bytes / 8];
    short[] s = new short[bytes / 2];
    byte[] b = new byte[bytes];
    r.nextBytes(b);
    for (int k = 0; k < f.length; k++) {
      f[k] = r.nextFloat();
      i[k] = r.nextInt();
    }
    for (int k = 0; k < d.length; k++) {
      d[k] = r.nextDouble();
      l[k] = r.nextLong();
    }
    for (int k = 0; k < s.length; k++) {
      s[k] = (short) r.nextInt();
    }
    return new Object[] {"x", f, d, i, l, s, b};
  }

  private static void assertSame(Object[] sent, Object[] back) {
    assertEquals(sent[0], back[0]);
    assertArrayEquals((float[]) sent[1], (float[]) back[1]);
    assertArrayEquals((double[]) sent[2], (double[]) back[2]);
    assertArrayEquals((int[]) sent[3], (int[]) back[3]);
    assertArrayEquals((long[]) sent[4], (long[]) back[4]);
    assertArrayEquals((short[]) sent[5], (short[]) back[5]);
    assertArrayEquals((byte[]) sent[6], (byte[]) back[6]);
  }

  @Test
  void theAnnouncedFileIsGoneOnceBothSidesMappedIt() {
    assertFalse(Files.exists(client.file()));
    assertFalse(Files.exists(client.file().getParent()));
  }

  @ParameterizedTest
  @ValueSource(ints = {SharedArea.MIN_BYTES - 8, SharedArea.MIN_BYTES - 1, SharedArea.MIN_BYTES, SharedArea.MIN_BYTES + 1,
      SharedArea.MIN_BYTES + 8, 100_000})
  void arraysAroundTheThresholdComeBackEqualAndOnlyLargeOnesLeaveTheFrame(int bytes) throws IOException {
    Object[] sent = values(bytes, bytes);
    SharedLink.Lease lease = client.lease();
    FrameBuffer frame = new FrameBuffer(64);
    codec.writeAll(ALL, sent, frame, lease);
    lease.commit(7);
    long inFrame = frame.payloadLength();
    long arrayBytes = 4L * (bytes / 4) * 2 + 8L * (bytes / 8) * 2 + 2L * (bytes / 2) + bytes;
    long shared = 0;
    for (int width : new int[] {4, 8, 4, 8, 2, 1}) {
      long n = (long) (bytes / width) * width;
      shared += n >= SharedArea.MIN_BYTES ? n : 0;
    }
    assertTrue(inFrame < arrayBytes - shared + 200, inFrame + " bytes in the frame; " + shared + " should be in the area");
    assertTrue(inFrame >= arrayBytes - shared, "the small arrays stay in the frame");
    Object[] back = codec.readAll(ALL, frame.array(), Frames.HEADER, frame.position(), job);
    assertSame(sent, back);
    assertEquals(shared > 0, !client.outboundFree(), "the half is taken while its frame is unread");
    job.received(7);
    assertTrue(client.outboundFree(), "the receiver frees it");
  }

  @Test
  void aBusyHalfSendsTheNextMessageOnTheSocketAndOnlyItsOwnFrameFreesIt() throws IOException {
    Object[] first = values(SharedArea.MIN_BYTES * 2, 1);
    SharedLink.Lease a = client.lease();
    FrameBuffer fa = new FrameBuffer(64);
    codec.writeAll(ALL, first, fa, a);
    a.commit(1);
    assertTrue(a.used());
    Object[] second = values(SharedArea.MIN_BYTES * 2, 2);
    SharedLink.Lease b = client.lease();
    FrameBuffer fb = new FrameBuffer(64);
    codec.writeAll(ALL, second, fb, b);
    b.commit(2);
    assertFalse(b.used(), "the half holds message 1 still");
    assertTrue(fb.payloadLength() > SharedArea.MIN_BYTES * 10, "so message 2 carries its arrays itself");
    job.received(2);
    assertFalse(client.outboundFree(), "frame 2 did not use the half: reading it frees nothing");
    assertSame(second, codec.readAll(ALL, fb.array(), Frames.HEADER, fb.position(), job));
    assertSame(first, codec.readAll(ALL, fa.array(), Frames.HEADER, fa.position(), job));
    job.received(1);
    assertTrue(client.outboundFree());
  }

  @Test
  void answersGoTheOtherWayThroughTheirOwnHalf() throws IOException {
    SharedLink.Lease request = client.lease();
    FrameBuffer call = new FrameBuffer(64);
    float[] args = values(SharedArea.MIN_BYTES * 4, 3)[1] instanceof float[] f ? f : null;
    codec.write(float[].class, args, call, request);
    request.commit(5);
    SharedLink.Lease answer = job.lease();
    FrameBuffer result = new FrameBuffer(64);
    codec.write(float[].class, args, result, answer);
    answer.commit(5);
    assertTrue(request.used() || !client.outboundFree());
    assertArrayEquals(args, (float[]) codec.read(float[].class, result.array(), Frames.HEADER, result.position(), client));
    assertArrayEquals(args, (float[]) codec.read(float[].class, call.array(), Frames.HEADER, call.position(), job));
  }

  @Test
  void anArrayLargerThanTheHalfStaysInTheFrame() throws IOException {
    float[] big = new float[HALF / 4 + 1];
    big[big.length - 1] = 42;
    SharedLink.Lease lease = client.lease();
    FrameBuffer frame = new FrameBuffer(64);
    codec.write(float[].class, big, frame, lease);
    assertFalse(lease.used());
    assertTrue(frame.payloadLength() > HALF);
    assertArrayEquals(big, (float[]) codec.read(float[].class, frame.array(), Frames.HEADER, frame.position(), job));
  }

  @Test
  void anAbandonedMessageFreesTheHalf() throws IOException {
    SharedLink.Lease lease = client.lease();
    codec.write(int[].class, new int[SharedArea.MIN_BYTES], new FrameBuffer(64), lease);
    assertFalse(client.outboundFree());
    lease.abandon();
    assertTrue(client.outboundFree());
  }

  @Test
  void placesOutsideTheHalfOrWithoutAnAreaAreRefused() throws IOException {
    FrameBuffer frame = new FrameBuffer(64);
    codec.write(float[].class, new float[SharedArea.MIN_BYTES], frame, client.lease());
    byte[] bytes = java.util.Arrays.copyOfRange(frame.array(), Frames.HEADER, frame.position());
    assertThrows(IOException.class, () -> codec.read(float[].class, bytes, 0, bytes.length, null), "no area here");
    int half = SharedLink.halfBytes(client.size());
    assertThrows(IOException.class, () -> job.inbound(half - 4, 8));
    assertThrows(IOException.class, () -> job.inbound(-1, 8));
    assertThrows(IOException.class, () -> job.inbound(0, half + 1));
    assertEquals(8, job.inbound(half - 8, 8).remaining());
  }

  @Test
  void theJobChecksRoomBeforeAnArrayIsMade() throws IOException {
    job.checkRoomWith(n -> {
      throw new IOException("no room for " + n);
    });
    FrameBuffer frame = new FrameBuffer(64);
    codec.write(float[].class, new float[SharedArea.MIN_BYTES], frame, client.lease());
    IOException e = assertThrows(IOException.class,
        () -> codec.read(float[].class, frame.array(), Frames.HEADER, frame.position(), job));
    assertTrue(e.getMessage().contains("no room"), e.getMessage());
  }

  @Test
  void onlyAPrivateAreaOfThisUserIsMapped() throws IOException {
    Path other = Files.createFile(dir.resolve("token"));
    Files.write(other, new byte[client.size()]);
    assertThrows(IOException.class, () -> SharedLink.open(other, client.size()), "not an area's path");
    assertThrows(IOException.class, () -> SharedLink.open(Path.of("relative", "parl-area-1-2", "area"), client.size()));
    assertThrows(IOException.class, () -> SharedLink.open(dir.resolve("parl-area-1-2/../parl-area-1-2/area"), client.size()));
  }

  @Test
  void aSweepRemovesOnlyAreasWhoseCreatorIsGone() throws IOException {
    Path dead = Files.createDirectory(dir.resolve(SharedArea.PREFIX + Long.MAX_VALUE + "-x"));
    Files.createFile(dead.resolve(SharedArea.FILE));
    try (SharedLink mine = SharedLink.create(dir, SharedLink.MIN_HALF)) {
      assertFalse(Files.exists(dead), "its creator is not running");
      assertTrue(Files.exists(mine.file()), "this process is");
      SharedArea.sweep(dir);
      assertTrue(Files.exists(mine.file()));
    }
  }
}
