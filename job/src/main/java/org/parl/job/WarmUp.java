package org.parl.job;

import static org.parl.internal.wire.ErrorKind.INVALID;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Type;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.parl.internal.security.SharedSecret;
import org.parl.internal.wire.DataAuth;
import org.parl.internal.wire.DataMessage;
import org.parl.internal.wire.DataMessageCodec;
import org.parl.internal.wire.FrameKeys;
import org.parl.internal.wire.Frames;
import org.parl.internal.wire.JobControl;
import org.parl.internal.wire.JobControlCodec;
import org.parl.internal.wire.SealedOutput;
import org.parl.internal.wire.ValueCodec;

/**
 * Runs what serving a client involves (the codec over common types, a HELLO with a class path's
 * worth of blobs and its proofs, a create header, a class loader, an error, sealing and opening
 * records, the control link's messages) while the process waits for an actor, often enough for the
 * JIT to compile it: the actor's creation and first calls then run compiled code. It prepares the
 * JSON codec of the data connection first, whose Jackson deserializers would cost a first create
 * tens of milliseconds. The class-data archive's training run uses it too, to load those classes.
 */
final class WarmUp {

  private static final int ROUNDS = 40;
  /**
   * Full records sealed and opened: enough for the JIT to compile AES-GCM (early in a job, see
   * {@code JobLauncher.CRYPTO_JIT}) while the job is idle; compiled, a job's first large arrays are as fast as its later ones.
   */
  private static final int SEALED_RECORDS = 128;

  private WarmUp() {}

  static void run(BlobStore blobs) {
    try {
      ValueCodec codec = new ValueCodec();
      Type[] types = {int.class, String.class, float[].class, List.class, Map.class};
      Object[] values = {1, "x", new float[] {1f}, List.of(1L), Map.of("k", 2.0)};
      List<String> hashes = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        hashes.add(String.format("%064x", i));
      }
      SharedSecret secret = SharedSecret.random();
      byte[] nonce = new byte[SharedSecret.BYTES];
      byte[] proof = DataAuth.helloProof(secret, nonce, nonce, DataAuth.NO_FINGERPRINT);
      DataMessageCodec.warmUp();
      byte[] hello = DataMessageCodec.encode(new DataMessage.Hello(Frames.PROTOCOL, HexFormat.of().formatHex(nonce),
          HexFormat.of().formatHex(proof), "warm-up", hashes, null));
      byte[] create = Frames.named(DataMessageCodec.encode(new DataMessage.Create("A", "B", "()", hashes,
          List.of(new DataMessage.ShippedFile("warm-up", hashes.get(0))))), new byte[0]);
      URL[] urls = new URL[hashes.size()];
      for (int i = 0; i < urls.length; i++) {
        urls[i] = blobs.path(hashes.get(i)).toUri().toURL();
      }
      for (int i = 0; i < ROUNDS; i++) {
        codec.readAll(types, codec.writeAll(types, values), 0);
        DataAuth.verifyHello(secret, DataAuth.helloProof(secret, nonce, nonce, DataAuth.NO_FINGERPRINT), nonce, nonce,
            DataAuth.NO_FINGERPRINT);
        Handshake.answer(DataMessageCodec.hello(hello, hello.length).blobs(), blobs, OutputStream.nullOutputStream(), "warm-up",
            i, proof, null);
        CreateRequest.of(new Frames.Frame(Frames.CREATE, i, create, create.length));
        ErrorPayload.of(new CallFailure(INVALID, "warm-up " + i, new IllegalStateException()));
        JobControlCodec.toJob(JobControlCodec.encode(new JobControl.Assign("warm-up", "warm-up")));
        JobControlCodec.encode(new JobControl.Ready("warm-up", 1, 1, secret.hex(), secret.hex()));
      }
      try (URLClassLoader l = new URLClassLoader("warm-up", urls, WarmUp.class.getClassLoader())) {
        Class.forName(ActorHost.class.getName(), false, l);
      }
      sealAndOpen(FrameKeys.derive(secret, nonce, nonce, hello, create));
    } catch (IOException | ClassNotFoundException | CallFailure e) {
      JobMain.log("warm-up failed: " + e.getMessage());
    }
  }

  /**
   * Seals records as the job sends them and opens them as a client would (the same two code paths
   * as the job's), a few at a time so that the warm-up leaves no large garbage in an idle job's heap.
   */
  private static void sealAndOpen(FrameKeys keys) throws IOException {
    int batch = 8;
    ByteArrayOutputStream sealed = new ByteArrayOutputStream(batch * (SealedOutput.RECORD + 64));
    byte[] record = new byte[SealedOutput.RECORD];
    for (int done = 0; done < SEALED_RECORDS; done += batch) {
      sealed.reset();
      try (SealedOutput out = keys.jobOutput(sealed)) {
        for (int i = 0; i < batch; i++) {
          out.write(record);
        }
      }
      try (InputStream in = keys.clientInput(new ByteArrayInputStream(sealed.toByteArray()))) {
        for (int i = 0; i < batch; i++) {
          in.readNBytes(record, 0, record.length);
        }
      }
    }
  }
}
