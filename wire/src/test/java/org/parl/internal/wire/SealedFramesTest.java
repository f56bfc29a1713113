package org.parl.internal.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.lang.reflect.Type;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.parl.internal.security.SharedSecret;

/**
 * The frame authenticator of the data path ({@link FrameKeys}, {@link SealedOutput},
 * {@link SealedInput}): a long run of valid frames (small ones, and large arrays written in
 * pieces) arrives intact, and an altered byte, a replayed, reordered, injected or cut record, a
 * truncated tag, the wrong key, the other direction's key or a handshake changed on the way is
 * refused before any of its bytes reaches the frame reader.
 */
class SealedFramesTest {

  private static final SharedSecret SECRET = SharedSecret.random();
  private static final byte[] JOB_NONCE = bytes(32, 1);
  private static final byte[] CLIENT_NONCE = bytes(32, 2);
  private static final byte[] HELLO = "{\"protocol\":5,\"blobs\":[]}".getBytes(StandardCharsets.UTF_8);
  private static final byte[] ANSWER = "{\"jobId\":\"j\",\"missing\":[]}".getBytes(StandardCharsets.UTF_8);

  private static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static FrameKeys keys() {
    return FrameKeys.derive(SECRET, JOB_NONCE, CLIENT_NONCE, HELLO, ANSWER);
  }

  /** A frame of {@code payload} sealed by the client into {@code sink}, flushed as the client does after each call. */
  private static void send(SealedOutput out, long id, byte[] payload) throws IOException {
    Frames.write(out, Frames.CALL, id, payload);
  }

  /** Three small calls, one record each, as the client's sealed stream sends them. */
  private static byte[] threeCalls() throws IOException {
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    SealedOutput out = keys().clientOutput(sink);
    for (int i = 1; i <= 3; i++) {
      send(out, i, ("call " + i).getBytes(StandardCharsets.UTF_8));
    }
    assertEquals(3, out.records());
    return sink.toByteArray();
  }

  /** The records of a sealed stream, each with its length prefix. */
  private static List<byte[]> records(byte[] stream) {
    List<byte[]> records = new ArrayList<>();
    ByteBuffer b = ByteBuffer.wrap(stream);
    while (b.hasRemaining()) {
      int n = b.getInt(b.position());
      byte[] r = new byte[4 + n];
      b.get(r);
      records.add(r);
    }
    return records;
  }

  private static byte[] join(List<byte[]> parts) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    parts.forEach(b::writeBytes);
    return b.toByteArray();
  }

  /** What the job reads from {@code stream}: the frames it accepted, then the failure (null at a clean end). */
  private record Read(List<String> frames, IOException failure) {}

  private static Read jobReads(byte[] stream, FrameKeys keys) {
    DataInputStream in = new DataInputStream(keys.jobInput(new ByteArrayInputStream(stream)));
    List<String> frames = new ArrayList<>();
    try {
      while (true) {
        Frames.Frame f = Frames.read(in);
        frames.add(f.id() + ":" + new String(f.payload(), 0, f.length(), StandardCharsets.UTF_8));
      }
    } catch (EOFException e) {
      return new Read(frames, e.getMessage() == null ? null : e);
    } catch (IOException e) {
      return new Read(frames, e);
    }
  }

  @Test
  void aLongRunOfFramesBothSmallAndLargeArrivesIntactInBothDirections() throws IOException {
    ValueCodec codec = new ValueCodec();
    Type[] types = {String.class, float[].class};
    Random r = new Random(3);
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    SealedOutput out = keys().jobOutput(sink);
    List<Object[]> sent = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      // mostly small calls, now and then an array over several records and pieces
      float[] f = new float[i % 500 == 7 ? FrameBuffer.PIECE / 4 * 3 / 2 + r.nextInt(1000) : r.nextInt(40)];
      for (int j = 0; j < f.length; j++) {
        f[j] = r.nextFloat();
      }
      Object[] values = {"frame " + i, f};
      sent.add(values);
      FrameBuffer frame = new FrameBuffer(64);
      codec.writeAll(types, values, frame);
      frame.writeFrame(out, Frames.RESULT, i, i % 3 != 0); // some frames share a record, as pipelined answers do
    }
    out.flush();
    DataInputStream in = new DataInputStream(keys().clientInput(new ByteArrayInputStream(sink.toByteArray())));
    for (int i = 0; i < sent.size(); i++) {
      Frames.Frame f = Frames.read(in);
      assertEquals(i, f.id());
      Object[] got = codec.readAll(types, f.payload(), 0, f.length());
      assertEquals(sent.get(i)[0], got[0]);
      assertArrayEquals((float[]) sent.get(i)[1], (float[]) got[1]);
    }
    assertThrows(EOFException.class, () -> Frames.read(in), "a clean end after the last record");
  }

  @Test
  void aLargeWriteIsSealedInSmallRecordsThatLeaveTogether() throws IOException {
    List<Integer> writes = new ArrayList<>();
    ByteArrayOutputStream sink = new ByteArrayOutputStream() {
      @Override
      public synchronized void write(byte[] b, int off, int len) {
        writes.add(len);
        super.write(b, off, len);
      }
    };
    SealedOutput out = keys().clientOutput(sink);
    byte[] payload = bytes(3 << 20, 9);
    send(out, 1, payload);
    int records = (int) out.records();
    assertTrue(records > (3 << 20) / SealedOutput.RECORD, records + " records of at most " + SealedOutput.RECORD + " bytes");
    assertTrue(writes.size() <= (3 << 20) / SealedOutput.SEND + 1, "records leave together: " + writes);
    assertTrue(writes.stream().allMatch(n -> n <= SealedOutput.SEND + SealedOutput.RECORD + 64), "writes " + writes);
    assertEquals(records, records(sink.toByteArray()).size());
    DataInputStream in = new DataInputStream(keys().jobInput(new ByteArrayInputStream(sink.toByteArray())));
    Frames.Frame f = Frames.read(in);
    assertArrayEquals(payload, Arrays.copyOf(f.payload(), f.length()));
  }

  @Test
  void everyAlteredByteIsRefusedAndNothingAlteredIsEverRead() throws IOException {
    byte[] stream = threeCalls();
    List<String> valid = jobReads(stream, keys()).frames();
    assertEquals(List.of("1:call 1", "2:call 2", "3:call 3"), valid);
    for (int i = 0; i < stream.length; i++) {
      byte[] altered = stream.clone();
      altered[i] ^= 0x20;
      Read read = jobReads(altered, keys());
      assertTrue(read.failure() != null, "byte " + i + " altered is noticed");
      assertEquals(valid.subList(0, read.frames().size()), read.frames(), "only intact frames before byte " + i);
      assertTrue(read.frames().size() < 3, "the frame of byte " + i + " is not read");
    }
  }

  @Test
  void aReplayedRecordIsRefused() throws IOException {
    List<byte[]> records = records(threeCalls());
    List<byte[]> replayed = new ArrayList<>(records);
    replayed.add(2, records.get(1));
    Read read = jobReads(join(replayed), keys());
    assertEquals(List.of("1:call 1", "2:call 2"), read.frames());
    assertTrue(read.failure() instanceof IntegrityException, String.valueOf(read.failure()));
    assertTrue(read.failure().getMessage().startsWith(IntegrityException.FAILED));
  }

  @Test
  void reorderedRecordsAreRefused() throws IOException {
    List<byte[]> records = records(threeCalls());
    Read read = jobReads(join(List.of(records.get(0), records.get(2), records.get(1))), keys());
    assertEquals(List.of("1:call 1"), read.frames());
    assertTrue(read.failure() instanceof IntegrityException, String.valueOf(read.failure()));
  }

  @Test
  void aRecordLeftOutIsRefused() throws IOException {
    List<byte[]> records = records(threeCalls());
    Read read = jobReads(join(List.of(records.get(0), records.get(2))), keys());
    assertEquals(List.of("1:call 1"), read.frames());
    assertTrue(read.failure() instanceof IntegrityException, String.valueOf(read.failure()));
  }

  @Test
  void anInjectedPlainFrameIsRefused() throws IOException {
    List<byte[]> records = records(threeCalls());
    ByteArrayOutputStream forged = new ByteArrayOutputStream();
    Frames.write(forged, Frames.CREATE, 2, "{\"actorClass\":\"Evil\"}".getBytes(StandardCharsets.UTF_8));
    Read read = jobReads(join(List.of(records.get(0), forged.toByteArray(), records.get(1))), keys());
    assertEquals(List.of("1:call 1"), read.frames());
    assertTrue(read.failure() instanceof IntegrityException, String.valueOf(read.failure()));
  }

  @Test
  void aTruncatedTagIsRefused() throws IOException {
    List<byte[]> records = records(threeCalls());
    for (int cut = 1; cut <= RecordCipher.TAG; cut++) {
      byte[] r = records.get(1);
      byte[] shorter = Arrays.copyOf(r, r.length - cut);
      ByteBuffer.wrap(shorter).putInt(0, shorter.length - 4);
      Read read = jobReads(join(List.of(records.get(0), shorter, records.get(2))), keys());
      assertEquals(List.of("1:call 1"), read.frames(), "a tag cut by " + cut);
      assertTrue(read.failure() instanceof IntegrityException, String.valueOf(read.failure()));
    }
  }

  @Test
  void anImpossibleRecordLengthIsRefusedBeforeAnythingIsAllocated() throws IOException {
    for (int length : new int[] {0, RecordCipher.TAG - 1, SealedOutput.RECORD + RecordCipher.TAG + 1, Integer.MAX_VALUE, -1}) {
      byte[] stream = ByteBuffer.allocate(8).putInt(length).array();
      Read read = jobReads(stream, keys());
      assertTrue(read.failure() instanceof IntegrityException, length + ": " + read.failure());
      assertTrue(read.failure().getMessage().contains("a record of " + length + " bytes"), read.failure().getMessage());
    }
  }

  @Test
  void theWrongKeyTheOtherDirectionOrAChangedHandshakeIsRefused() throws IOException {
    byte[] stream = threeCalls();
    FrameKeys otherSecret = FrameKeys.derive(SharedSecret.random(), JOB_NONCE, CLIENT_NONCE, HELLO, ANSWER);
    FrameKeys otherNonce = FrameKeys.derive(SECRET, bytes(32, 9), CLIENT_NONCE, HELLO, ANSWER);
    byte[] changedHello = HELLO.clone();
    changedHello[2] ^= 1;
    FrameKeys otherHello = FrameKeys.derive(SECRET, JOB_NONCE, CLIENT_NONCE, changedHello, ANSWER);
    FrameKeys otherAnswer = FrameKeys.derive(SECRET, JOB_NONCE, CLIENT_NONCE, HELLO, "{}".getBytes(StandardCharsets.UTF_8));
    for (FrameKeys wrong : List.of(otherSecret, otherNonce, otherHello, otherAnswer)) {
      Read read = jobReads(stream, wrong);
      assertEquals(List.of(), read.frames());
      assertTrue(read.failure() instanceof IntegrityException, String.valueOf(read.failure()));
    }
    // the client's own records reflected back to it do not open with the job-to-client key
    DataInputStream reflected = new DataInputStream(keys().clientInput(new ByteArrayInputStream(stream)));
    assertThrows(IntegrityException.class, () -> Frames.read(reflected));
  }

  @Test
  void aFailedStreamStaysFailed() throws IOException {
    List<byte[]> records = records(threeCalls());
    byte[] bad = records.get(0).clone();
    bad[bad.length - 1] ^= 1;
    SealedInput in = keys().jobInput(new ByteArrayInputStream(join(List.of(bad, records.get(1)))));
    assertThrows(IntegrityException.class, in::read);
    assertThrows(IntegrityException.class, in::read, "the next record is not looked at");
    assertFalse(in.hasBuffered());
  }
}
