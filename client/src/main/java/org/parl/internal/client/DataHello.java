package org.parl.internal.client;

import java.io.IOException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.parl.AuthenticationException;
import org.parl.ParlException;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.security.SharedSecret;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.DataAuth;
import org.parl.internal.wire.DataMessage;
import org.parl.internal.wire.DataMessageCodec;
import org.parl.internal.wire.FrameKeys;
import org.parl.internal.wire.Frames;
import org.parl.internal.wire.SharedLink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's side of the challenge-response that opens a data connection ({@link DataAuth}):
 * speaks first, proving over the job's nonce from the placement (and over the job's certificate,
 * with TLS) that this client holds the job's secret, and checks the job's proof in return. The
 * secret itself never travels on the connection. The answer also says which code blobs the job's
 * host lacks, and whether the job mapped the shared area this client offered ({@link SharedOffer});
 * the job acts on the offer only once the client's proof has checked out. Without TLS, every frame
 * after the exchange is sealed under keys derived from it ({@link FrameKeys}).
 */
final class DataHello {

  private static final Logger LOG = LoggerFactory.getLogger(DataHello.class);

  /** Longer than a job gives a connection to authenticate: the job closes the connection first. */
  static final int HELLO_MS = 15_000;
  private static final long BUSY_PAUSE_MS = 100;

  private DataHello() {}

  /** An authenticated connection, and the code blobs to ship on it. */
  record Opened(ActorConnection connection, Set<String> missing) {}

  /**
   * Connects to a job (with TLS when the cluster encrypts the data path) and authenticates both
   * ways; a job that is busy authenticating others is asked again for up to {@link #HELLO_MS}.
   *
   * @param token the job's secret as the master handed it over, in hex
   * @param nonce the job's nonce from the same placement, in hex
   * @param offer a shared area to offer the job, or null: the connection then uses it if the job
   *     mapped it, and it is closed otherwise (its file is removed either way)
   * @throws IOException when the job cannot be reached
   * @throws AuthenticationException when either side's proof does not check out
   */
  static Opened open(String host, int port, int connectMs, boolean tls, String token, String nonce, String clientId,
      List<String> blobs, SharedLink offer) throws IOException {
    try {
      return connect(host, port, connectMs, tls, token, nonce, clientId, blobs, offer);
    } catch (IOException | RuntimeException e) {
      if (offer != null) {
        offer.close();
      }
      throw e;
    }
  }

  private static Opened connect(String host, int port, int connectMs, boolean tls, String token, String nonce,
      String clientId, List<String> blobs, SharedLink offer) throws IOException {
    SharedSecret secret;
    try {
      secret = SharedSecret.ofHex(token);
    } catch (IllegalArgumentException e) {
      throw new ParlException("the master's answer holds no usable credential for the job: " + e.getMessage(), e);
    }
    byte[] jobNonce = DataAuth.bytes32(nonce);
    if (jobNonce == null) {
      throw new ParlException("the master's answer holds no usable nonce for the job");
    }
    String where = host + ":" + port;
    long deadline = System.currentTimeMillis() + HELLO_MS;
    while (true) {
      ActorConnection conn = ActorConnection.open(host, port, connectMs, tls);
      try {
        return new Opened(conn, run(conn, secret, jobNonce, clientId, blobs, HELLO_MS, where, offer));
      } catch (Busy e) {
        conn.closeSocket();
        if (System.currentTimeMillis() > deadline) {
          throw new ParlException("the job at " + where + " stayed busy for " + HELLO_MS / 1000 + " s: " + e.getMessage(), e);
        }
        pause();
      } catch (IOException | RuntimeException e) {
        conn.closeSocket();
        throw e;
      }
    }
  }

  private static void pause() {
    try {
      Thread.sleep(BUSY_PAUSE_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ParlException("interrupted while connecting to a job", e);
    }
  }

  /** The job refused the connection because too many others are authenticating: try again shortly. */
  static final class Busy extends IOException {

    private static final long serialVersionUID = 1L;

    Busy() {
      super(DataAuth.BUSY);
    }
  }

  /**
   * Authenticates both ways on a fresh connection.
   *
   * @param jobNonce the job's nonce, from its placement
   * @param where the job's address, for messages
   * @param offer a shared area offered to the job (null: none); once the job has answered, its file
   *     is removed, and it serves {@code conn} if the job mapped it, else it is closed
   * @return the hashes among {@code blobs} to ship to the job
   * @throws AuthenticationException when either side's proof does not check out
   * @throws Busy when the job asks to try again
   */
  static Set<String> run(ActorConnection conn, SharedSecret secret, byte[] jobNonce, String clientId, List<String> blobs,
      int timeoutMs, String where, SharedLink offer) throws IOException {
    byte[] nonce = ClusterToken.nonce(SharedSecret.BYTES);
    byte[] fingerprint = conn.fingerprint();
    List<String> listed = blobs.subList(0, Math.min(blobs.size(), DataMessage.MAX_LISTED));
    HexFormat hex = HexFormat.of();
    byte[] helloBytes = DataMessageCodec.encode(new DataMessage.Hello(Frames.PROTOCOL, hex.formatHex(nonce),
        hex.formatHex(DataAuth.helloProof(secret, jobNonce, nonce, fingerprint)), clientId, listed,
        offer == null ? null : new DataMessage.Offer(offer.file().toString(), offer.size())));
    Frames.Frame first = conn.hello(helloBytes, timeoutMs);
    if (first.type() == Frames.ERROR) {
      ParlException error = Errors.fromJob(first.payload(), first.length());
      if (DataAuth.BUSY.equals(error.getMessage())) {
        throw new Busy();
      }
      if (error.getMessage().startsWith(DataAuth.REFUSED)) {
        throw new AuthenticationException("the job at " + where + " refused this client: " + error.getMessage(), error);
      }
      throw error;
    }
    if (first.type() != Frames.RESULT) {
      throw new ParlException("the job at " + where + (first.type() == Frames.CHALLENGE ? " speaks an older parl protocol"
          : " answered the HELLO with a frame of type " + first.type()) + ": use the same parl version on clients and workers");
    }
    byte[] answerBytes = Arrays.copyOf(first.payload(), first.length());
    DataMessage.Welcome answer;
    try {
      answer = DataMessageCodec.welcome(answerBytes, answerBytes.length);
    } catch (BadMessageException e) { // it has not proven itself: what it says is nothing to act on
      throw new AuthenticationException(DataAuth.REFUSED + "the job at " + where + " answered with a malformed welcome: "
          + e.getMessage());
    }
    if (!DataAuth.verifyWelcome(secret, DataAuth.bytes32(answer.proof()), jobNonce, nonce, fingerprint)) {
      throw new AuthenticationException(DataAuth.REFUSED + "the job at " + where + " did not prove that it holds its "
          + "credential" + (fingerprint.length > 0 ? " over the TLS certificate it showed" : ""));
    }
    if (fingerprint.length == 0) {
      conn.seal(FrameKeys.derive(secret, jobNonce, nonce, helloBytes, answerBytes));
    }
    if (offer != null) {
      offer.unlink();
      if (Boolean.TRUE.equals(answer.shm())) {
        conn.share(offer);
      } else {
        LOG.debug("the job at {} did not map the shared area: large arrays go on the socket", where);
        offer.close();
      }
    }
    Set<String> asked = Set.copyOf(listed);
    Set<String> ship = new LinkedHashSet<>(blobs.subList(listed.size(), blobs.size()));
    for (String hash : answer.missing()) {
      if (asked.contains(hash)) {
        ship.add(hash);
      }
    }
    return ship;
  }
}
