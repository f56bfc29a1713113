package org.parl.master;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.util.Optional;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.JsonLines;
import org.parl.internal.wire.gateway.GatewayAuth;
import org.parl.internal.wire.gateway.GatewayCodec;
import org.parl.internal.wire.gateway.GatewayReply;
import org.parl.internal.wire.gateway.GatewayRequest;
import org.parl.internal.wire.gateway.ServerHandshake;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's door (docs/contract.md §8, §9): each new connection is challenged and must prove, in one line
 * of at most {@link GatewayAuth#MAX_LINE_BEFORE_AUTH} bytes and within {@link GatewayAuth#DEADLINE_MS},
 * that it holds the cluster token, bound to the certificate this gateway presents (see
 * {@link GatewayAuth}). Only then are its lines served. A peer that fails gets one refusal and is
 * disconnected; it learns nothing about the cluster. Used on the gateway's context.
 */
final class GatewayDoor {

  private static final Logger log = LoggerFactory.getLogger(GatewayDoor.class);
  static final String REFUSAL = "authentication failed: this peer did not prove that it holds the cluster token";

  private final Vertx vertx;
  private final ClusterToken token;
  private final byte[] fingerprint;
  private final long deadlineMs;

  /** @param fingerprint SHA-256 of the certificate the gateway presents */
  GatewayDoor(Vertx vertx, ClusterToken token, byte[] fingerprint) {
    this(vertx, token, fingerprint, GatewayAuth.DEADLINE_MS);
  }

  /** With another deadline than {@link GatewayAuth#DEADLINE_MS}, for tests. */
  GatewayDoor(Vertx vertx, ClusterToken token, byte[] fingerprint, long deadlineMs) {
    this.vertx = vertx;
    this.token = token;
    this.fingerprint = fingerprint.clone();
    this.deadlineMs = deadlineMs;
  }

  /** Challenges the session's peer; once it has authenticated, its lines go to {@code served}. */
  void admit(GatewaySession session, Handler<Buffer> served) {
    ServerHandshake handshake = new ServerHandshake(token, fingerprint);
    long deadline = vertx.setTimer(deadlineMs, t -> {
      if (!session.authenticated()) {
        refuse(session, null, "no authentication within " + deadlineMs + " ms");
      }
    });
    JsonLines.LineReader[] reader = new JsonLines.LineReader[1];
    reader[0] = JsonLines.readLines(session.socket(), GatewayAuth.MAX_LINE_BEFORE_AUTH, line -> {
      if (session.authenticated()) {
        served.handle(line);
      } else if (authenticate(session, handshake, line)) {
        vertx.cancelTimer(deadline);
        reader[0].maxLine(JsonLines.MAX_LINE);
      }
    }, bad -> {
      if (session.authenticated()) {
        session.fail(null, ErrorKind.INVALID, bad);
      } else {
        refuse(session, null, bad + " before authentication");
      }
    });
    session.send(handshake.challenge());
  }

  private boolean authenticate(GatewaySession session, ServerHandshake handshake, Buffer line) {
    GatewayRequest request;
    try {
      request = GatewayCodec.request(line);
    } catch (BadMessageException e) {
      refuse(session, GatewayCodec.idOf(line), "expected an Authenticate request first: " + e.getMessage());
      return false;
    }
    if (!(request instanceof GatewayRequest.Authenticate answer)) {
      refuse(session, request.id(), "expected an Authenticate request first, got " + request.getClass().getSimpleName());
      return false;
    }
    Optional<GatewayReply.Authenticated> proven = handshake.check(answer);
    if (proven.isEmpty()) {
      refuse(session, answer.id(), "wrong proof");
      return false;
    }
    session.markAuthenticated();
    session.send(proven.get());
    return true;
  }

  private void refuse(GatewaySession session, Long requestId, String reason) {
    if (!session.closed()) {
      log.warn("gateway refused {}: {}", session.peer(), reason.replaceAll("\\p{Cntrl}", "?"));
      session.refuse(requestId, REFUSAL + " (" + reason + "); the connection is closed");
    }
  }
}
