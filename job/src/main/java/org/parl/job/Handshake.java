package org.parl.job;

import static org.parl.internal.wire.ErrorKind.INVALID;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Supplier;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.security.SharedSecret;
import org.parl.internal.wire.BadFrameException;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.DataAuth;
import org.parl.internal.wire.DataMessage;
import org.parl.internal.wire.DataMessageCodec;
import org.parl.internal.wire.FrameKeys;
import org.parl.internal.wire.Frames;
import org.parl.internal.wire.SharedLink;

/**
 * The job's side of the challenge-response that opens a data connection ({@link DataAuth}): the
 * client's HELLO, its proof over this handshake's nonce (made with it, handed to the client with
 * the placement) checked in constant time, then the job's own proof and the code blobs this host
 * still lacks. Anything else gets one ERROR frame that begins with {@link DataAuth#REFUSED} and
 * says nothing about the secret. Without TLS, every frame after the answer is sealed under keys
 * derived from the exchange ({@link FrameKeys}).
 *
 * <p>A client on this host may offer a shared area for large arrays ({@link SharedLink}). The
 * offer is looked at only once the client's proof has checked out: the job maps it if it is a
 * private area of this user of an acceptable size (at most 1/{@value SharedLink#LIMIT_SHARE} of the job's
 * memory limit, since its touched pages are resident in this process and count against it), and
 * says so in its answer; else the connection keeps to the socket.
 */
final class Handshake {

  /** A HELLO whose proof checked out: {@code bytes} is its payload, {@code message} what it says. */
  record Hello(long id, byte[] clientNonce, byte[] bytes, DataMessage.Hello message) {}

  /**
   * An accepted connection: the shared area it uses, if any, and the keys that seal its frames from
   * now on ({@link FrameKeys}); null keys on a TLS connection, which TLS already protects.
   */
  record Welcome(SharedLink shared, FrameKeys keys) {}

  private final SharedSecret secret;
  /** The job's nonce for its client's HELLO: one per actor (a new handshake for each). */
  private final byte[] jobNonce = ClusterToken.nonce(SharedSecret.BYTES);
  private final byte[] fingerprint;
  private final BlobStore blobs;
  private final Supplier<String> jobId;
  private final long memoryLimitBytes;

  /**
   * @param fingerprint of the data port's TLS certificate, or {@link DataAuth#NO_FINGERPRINT}
   * @param memoryLimitMb the job's memory limit, 0 for none
   */
  Handshake(SharedSecret secret, byte[] fingerprint, BlobStore blobs, Supplier<String> jobId, int memoryLimitMb) {
    this.secret = secret;
    this.fingerprint = fingerprint.clone();
    this.blobs = blobs;
    this.jobId = jobId;
    this.memoryLimitBytes = (long) memoryLimitMb << 20;
  }

  /** The nonce the client proves itself over, in hex: it goes to the client with the job's placement. */
  String nonce() {
    return HexFormat.of().formatHex(jobNonce);
  }

  /**
   * Reads the client's HELLO and checks it. Reads at most {@link Frames#PRE_AUTH_MAX_PAYLOAD}
   * bytes of payload, allocating nothing before the announced length has been checked.
   *
   * @return the HELLO, whose proof checked out
   * @throws Refused when the peer was refused (it has been sent one ERROR frame saying why)
   * @throws IOException when the connection failed, timed out or ended
   */
  Hello check(DataInputStream in, OutputStream out) throws IOException {
    Frames.Frame f;
    try {
      f = Frames.read(in, null, Frames.PRE_AUTH_MAX_PAYLOAD);
    } catch (BadFrameException e) {
      return refuse(out, 0, e.getMessage() + " before authentication");
    }
    if (f.type() != Frames.HELLO) {
      return refuse(out, f.id(), "the first frame must be a HELLO, not type " + f.type());
    }
    DataMessage.Hello hello;
    try {
      hello = DataMessageCodec.hello(f.payload(), f.length());
    } catch (BadMessageException e) {
      return refuse(out, f.id(), e.getMessage());
    }
    byte[] clientNonce = DataAuth.bytes32(hello.nonce());
    if (!DataAuth.verifyHello(secret, DataAuth.bytes32(hello.proof()), jobNonce, clientNonce, fingerprint)) {
      return refuse(out, f.id(), "the client did not prove that it holds this job's credential");
    }
    return new Hello(f.id(), clientNonce, Arrays.copyOf(f.payload(), f.length()), hello);
  }

  /**
   * Answers an accepted HELLO: the job's proof, its id, the blobs this host still lacks, and whether
   * it mapped the shared area offered; then derives the keys of the connection's frames from the
   * credential, both nonces and the HELLO and answer as sent (without TLS).
   *
   * @return the shared area (null when none was offered or it could not be used) and the keys
   */
  Welcome welcome(Hello h, OutputStream out) throws IOException {
    DataMessage.Offer offer = h.message().shm();
    SharedLink shared = offer == null ? null : map(offer);
    byte[] answer;
    try {
      answer = answer(h.message().blobs(), blobs, out, jobId.get(), h.id(), DataAuth.welcomeProof(secret, jobNonce,
          h.clientNonce(), fingerprint), offer == null ? null : shared != null);
    } catch (IOException | RuntimeException e) {
      if (shared != null) {
        shared.close();
      }
      throw e;
    }
    FrameKeys keys = fingerprint.length > 0 ? null
        : FrameKeys.derive(secret, jobNonce, h.clientNonce(), h.bytes(), answer);
    return new Welcome(shared, keys);
  }

  /** Maps an offered area, or says in one line why not (the connection then keeps to the socket). */
  private SharedLink map(DataMessage.Offer offer) {
    try {
      if (memoryLimitBytes > 0 && offer.size() > memoryLimitBytes / SharedLink.LIMIT_SHARE) {
        throw new IOException("an area of " + (offer.size() >> 20) + " MiB is over 1/" + SharedLink.LIMIT_SHARE
            + " of the job's memory limit");
      }
      return SharedLink.open(Path.of(offer.file()), offer.size());
    } catch (IOException | RuntimeException e) {
      JobMain.log("large arrays go on the socket: the client's shared memory cannot be used (" + e.getMessage() + ")");
      return null;
    }
  }

  /**
   * Sends the answer to an accepted HELLO.
   *
   * @param wanted the blobs the HELLO lists: the answer says which this host lacks
   * @param shared whether the offered shared area was mapped; null when none was offered
   * @return the answer's payload, as sent
   */
  static byte[] answer(List<String> wanted, BlobStore blobs, OutputStream out, String jobId, long id, byte[] proof,
      Boolean shared) throws IOException {
    List<String> missing = new ArrayList<>();
    for (String hash : wanted) {
      if (!blobs.has(hash)) {
        missing.add(hash);
      }
    }
    byte[] payload = DataMessageCodec.encode(new DataMessage.Welcome(jobId, ProcessHandle.current().pid(), missing,
        HexFormat.of().formatHex(proof), shared));
    Frames.write(out, Frames.RESULT, id, payload);
    return payload;
  }

  private static Hello refuse(OutputStream out, long id, String why) throws IOException {
    Frames.write(out, Frames.ERROR, id, ErrorPayload.of(new CallFailure(INVALID, DataAuth.REFUSED + why)));
    throw new Refused(why);
  }

  /** The peer was refused (it has been told why). */
  static final class Refused extends IOException {

    private static final long serialVersionUID = 1L;

    Refused(String why) {
      super(why);
    }
  }
}
