package org.parl.internal.wire;

import java.nio.charset.StandardCharsets;
import org.parl.internal.security.SharedSecret;

/**
 * The challenge-response on a worker's loopback control port: a job process and its worker prove
 * to each other that they hold the secret the worker gave that process (on its standard input),
 * before the worker believes the job's {@code ready} and before the job sends it (the messages are
 * {@link JobControl}'s).
 *
 * <pre>
 *   worker -&gt; job     {"type":"Challenge","nonce":hex workerNonce}
 *   job    -&gt; worker  {"type":"Hello","slot":S,"nonce":hex jobNonce,"proof":hex helloProof}
 *   worker -&gt; job     {"type":"Welcome","proof":hex welcomeProof}
 *   job    -&gt; worker  {"type":"Ready",...}
 *
 *   helloProof   = HMAC(secret, "parl control hello" | workerNonce | jobNonce | S)
 *   welcomeProof = HMAC(secret, "parl control welcome" | workerNonce | jobNonce | S)
 * </pre>
 */
public final class ControlAuth {

  /** How long a control connection has to authenticate before the worker closes it. */
  public static final long DEADLINE_MS = 10_000;
  private static final String HELLO = "parl control hello";
  private static final String WELCOME = "parl control welcome";

  private ControlAuth() {}

  /** The job's proof. */
  public static byte[] helloProof(SharedSecret secret, byte[] workerNonce, byte[] jobNonce, String slot) {
    return secret.proof(HELLO, workerNonce, jobNonce, slot.getBytes(StandardCharsets.UTF_8));
  }

  /** The worker's proof. */
  public static byte[] welcomeProof(SharedSecret secret, byte[] workerNonce, byte[] jobNonce, String slot) {
    return secret.proof(WELCOME, workerNonce, jobNonce, slot.getBytes(StandardCharsets.UTF_8));
  }

  /** Checks a {@link #helloProof} in constant time. */
  public static boolean verifyHello(SharedSecret secret, byte[] claimed, byte[] workerNonce, byte[] jobNonce, String slot) {
    return secret.verify(claimed, HELLO, workerNonce, jobNonce, slot.getBytes(StandardCharsets.UTF_8));
  }

  /** Checks a {@link #welcomeProof} in constant time. */
  public static boolean verifyWelcome(SharedSecret secret, byte[] claimed, byte[] workerNonce, byte[] jobNonce,
      String slot) {
    return secret.verify(claimed, WELCOME, workerNonce, jobNonce, slot.getBytes(StandardCharsets.UTF_8));
  }
}
