package org.parl.master;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.AsyncMap;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.parl.AuthenticationException;
import org.parl.cluster.Addresses;
import org.parl.internal.security.ClusterToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The secret that lets a client, and only it, resume its session at another master's gateway
 * (after a takeover): 256 random bits given to the client in its welcome, kept in the cluster map
 * {@link Addresses#CLIENT_TICKETS} only as their SHA-256, so that neither a member that reads the
 * map nor another holder of the cluster token can present it. A client's ticket lives as long as
 * its session: removed when it leaves, or when it did not resume within {@link #RESUME_GRACE_MS}
 * after its master left.
 */
final class ResumeTickets {

  private static final Logger log = LoggerFactory.getLogger(ResumeTickets.class);
  /** How long a client whose master left may take to resume before its ticket is dropped. */
  static final long RESUME_GRACE_MS = 60_000;
  private static final int BYTES = 32;

  private final Vertx vertx;

  ResumeTickets(Vertx vertx) {
    this.vertx = vertx;
  }

  private Future<AsyncMap<String, String>> map() {
    return vertx.sharedData().getAsyncMap(Addresses.CLIENT_TICKETS);
  }

  /** Makes a new client's ticket and records its hash; the ticket itself, once recorded. */
  Future<String> issue(String clientId) {
    String ticket = HexFormat.of().formatHex(ClusterToken.nonce(BYTES));
    return map().compose(m -> m.put(clientId, hash(ticket))).map(ticket);
  }

  /**
   * Whether {@code ticket} is the one given to {@code clientId}: succeeds, or fails with an
   * {@link AuthenticationException} that says why.
   */
  Future<Void> check(String clientId, String ticket) {
    if (ticket == null) {
      return Future.failedFuture(new AuthenticationException("client " + clientId + "'s session is resumed only with "
          + "the resume ticket its master gave it, and this hello has none"));
    }
    return map().compose(m -> m.get(clientId)).compose(stored -> {
      if (stored == null) {
        log.warn("refused to resume client {}: it has no session to resume", clientId);
        return Future.failedFuture(new AuthenticationException("client " + clientId + " has no session to resume: "
            + "it ended, or was not resumed within " + RESUME_GRACE_MS / 1000 + " s of its master leaving"));
      }
      if (!MessageDigest.isEqual(stored.getBytes(StandardCharsets.US_ASCII), hash(ticket).getBytes(StandardCharsets.US_ASCII))) {
        log.warn("refused to resume client {}: wrong resume ticket", clientId);
        return Future.failedFuture(new AuthenticationException("the resume ticket for client " + clientId
            + " is wrong: a session is resumed only by the program that opened it"));
      }
      return Future.succeededFuture();
    });
  }

  /** The client left for good: its ticket goes with it. */
  void forget(String clientId) {
    map().compose(m -> m.remove(clientId))
        .onFailure(e -> log.warn("could not drop the resume ticket of client {}: {}", clientId, e.getMessage()));
  }

  /**
   * The master of {@code clientId} left: unless the client has resumed somewhere (its record is in
   * the clients map again) within {@link #RESUME_GRACE_MS}, its ticket is dropped.
   */
  void forgetUnlessResumed(String clientId) {
    vertx.setTimer(RESUME_GRACE_MS, t -> vertx.sharedData().<String, String>getAsyncMap(Addresses.CLIENTS_MAP)
        .compose(clients -> clients.get(clientId))
        .onSuccess(record -> {
          if (record == null) {
            forget(clientId);
          }
        }));
  }

  static String hash(String ticket) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(ticket.getBytes(StandardCharsets.US_ASCII)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
    }
  }
}
