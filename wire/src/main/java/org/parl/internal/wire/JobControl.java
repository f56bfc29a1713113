package org.parl.internal.wire;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;

/**
 * The messages of the control link between a worker and one of its job processes (loopback TCP,
 * one JSON line each, named by its {@code type}; {@link JobControlCodec} encodes and checks them):
 * {@link ToJob} from the worker, {@link ToWorker} from the job.
 *
 * <pre>
 *   worker -&gt; job     Challenge                        the worker speaks first ({@link ControlAuth})
 *   job    -&gt; worker  Hello                            the job's proof
 *   worker -&gt; job     Welcome                          the worker's proof
 *   job    -&gt; worker  Ready                            its data port, its client's secret and nonce
 *   worker -&gt; job     Assign, Ping, Stop               a job id (for its log), a heartbeat, the end
 *   job    -&gt; worker  Pong, Exiting, Stopping          calls served; last words, with a cause or not
 *   job    -&gt; worker  GpuMismatch                      its GPUs are not its allocation (once)
 *   job    -&gt; worker  Released                         reuse: the client closed the actor
 *   worker -&gt; job     Renew (or Stop)                  reuse: a fresh data-port identity
 *   job    -&gt; worker  Ready again (or NotReused)       reuse: ready for the next actor
 * </pre>
 *
 * <p>The records bound what they carry and check the form of nonces, proofs and secrets; whether
 * a proof is right, and whether a ready comes from the process the worker started, is for the
 * receiving end to decide.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
public sealed interface JobControl {

  /** Most GPU UUIDs a {@link GpuMismatch} lists. */
  int MAX_GPUS = 1024;
  /** Longest data-port setting a {@link Renew} carries, as on the job's standard input. */
  int MAX_DATA_LINE = 16 * 1024;

  /** What a worker sends to its job process. */
  sealed interface ToJob extends JobControl {}

  /** What a job process sends to its worker. */
  sealed interface ToWorker extends JobControl {}

  /** The worker's challenge, the first line on a new control connection: its fresh nonce in hex. */
  record Challenge(String nonce) implements ToJob {
    public Challenge {
      Checks.hex32("nonce", nonce);
    }
  }

  /**
   * The job's answer to the {@link Challenge}: the slot it was started as, its own fresh nonce,
   * and its proof of the process's secret ({@link ControlAuth#helloProof}), both in hex.
   */
  record Hello(String slot, String nonce, String proof) implements ToWorker {
    public Hello {
      Checks.name("slot", slot);
      Checks.hex32("nonce", nonce);
      Checks.hex32("proof", proof);
    }
  }

  /** The worker's proof of the process's secret in turn ({@link ControlAuth#welcomeProof}), in hex. */
  record Welcome(String proof) implements ToJob {
    public Welcome {
      Checks.hex32("proof", proof);
    }
  }

  /**
   * The job is ready for an actor: at start, and again after a {@link Renew}.
   *
   * @param slot the slot the process was started as (a reused process keeps saying its first)
   * @param pid the process's id
   * @param port its data port
   * @param token the secret its client must prove it holds, in hex
   * @param nonce the job's nonce for its client's HELLO ({@link DataAuth}), fresh with the secret, in hex
   */
  record Ready(String slot, @Required long pid, @Required int port, String token, String nonce) implements ToWorker {
    public Ready {
      Checks.name("slot", slot);
      Checks.range("pid", pid, 1, Long.MAX_VALUE);
      Checks.range("port", port, 1, 65_535);
      Checks.hex32("token", token);
      Checks.hex32("nonce", nonce);
    }

    @Override
    public String toString() { // the token is the client's secret: never in a log line
      return "Ready[slot=" + slot + ", pid=" + pid + ", port=" + port + "]";
    }
  }

  /** The worker tells a ready job which job it now runs, and for which client (for its log). */
  record Assign(String jobId, String clientId) implements ToJob {
    public Assign {
      Checks.name("jobId", jobId);
      Checks.name("clientId", clientId);
    }
  }

  /** The worker's heartbeat; a job that does not answer with a {@link Pong} in time is killed. */
  record Ping() implements ToJob {}

  /** The answer to a {@link Ping}, and the first of a job's last words: the calls it served its actor. */
  record Pong(@Required long calls) implements ToWorker {
    public Pong {
      Checks.range("calls", calls, 0, Long.MAX_VALUE);
    }
  }

  /** The worker ends the process. */
  record Stop() implements ToJob {}

  /** The job's last words on its way out, when its end is not the worker's doing. */
  record Exiting() implements ToWorker {}

  /**
   * The job ends itself for a reason its client must hear (it is not the actor's doing): the worker
   * reports {@code cause} as the job's end instead of reading one from the exit status.
   *
   * @param cause why, or null
   */
  record Stopping(String cause) implements ToWorker {
    public Stopping {
      Checks.text("cause", cause, Checks.MAX_TEXT);
    }
  }

  /**
   * A GPU job tells its worker, once, that the devices the CUDA driver shows it are not its
   * allocation: the worker logs both lists. The create that found it fails with the same lists.
   *
   * @param expected the UUIDs of the job's allocation
   * @param seen the UUIDs the driver shows
   */
  record GpuMismatch(List<String> expected, List<String> seen) implements ToWorker {
    public GpuMismatch {
      expected = Checks.names("expected", Checks.present("expected", expected), MAX_GPUS);
      seen = Checks.names("seen", Checks.present("seen", seen), MAX_GPUS);
    }
  }

  /**
   * Reuse, first step: the job's actor was closed by its client, having served {@code calls} calls
   * in all. The worker answers {@link Renew} to keep the process for another actor, or {@link Stop}.
   */
  record Released(@Required long calls) implements ToWorker {
    public Released {
      Checks.range("calls", calls, 0, Long.MAX_VALUE);
    }
  }

  /**
   * Reuse, second step: the worker keeps the process for another actor. {@code dataLine} is its
   * data port's new setting: {@code plain}, or {@code tls base64(PKCS#8 key) base64(certificate)},
   * a key made for this actor alone. The job then checks that its previous actor left nothing
   * behind, and says {@link Ready} again with a fresh port and secret, or {@link NotReused}.
   */
  record Renew(String dataLine) implements ToJob {
    public Renew {
      Checks.present("dataLine", dataLine);
      Checks.text("dataLine", dataLine, MAX_DATA_LINE);
    }

    @Override
    public String toString() { // the line holds a private key: never in a log line
      return "Renew[" + (dataLine.equals("plain") ? "plain" : "tls") + "]";
    }
  }

  /** Reuse, last step: the job found that its previous actor left something behind, and exits. */
  record NotReused(String why) implements ToWorker {
    public NotReused {
      Checks.present("why", why);
      Checks.text("why", why, Checks.MAX_TEXT);
    }
  }
}
