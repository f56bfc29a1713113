package org.parl.job;

import static org.parl.internal.wire.ErrorKind.INVALID;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.parl.internal.wire.FrameBuffer;
import org.parl.internal.wire.Frames;
import org.parl.internal.wire.SharedLink;

/**
 * Serves the one caller of a job, the client that created its actor, once it has authenticated:
 * frames are handled in arrival order on this thread, so calls run in the order they were sent and
 * each reply goes out before the next call starts. With memory shared with the client, large arrays
 * of calls and results pass through it ({@link SharedLink}).
 */
final class CallerSession {

  /** Calls served by this process, reported to the worker with each pong. */
  static final AtomicLong CALLS = new AtomicLong();

  private final ActorHost host;
  private final DataInputStream in;
  private final OutputStream out;
  private final BooleanSupplier moreWaiting;
  private final BlobStore blobs;
  private final SharedLink shared;
  /** Frames are handled one at a time, so one receive buffer and one reply buffer serve them all. */
  private byte[] received = new byte[64 * 1024];
  private final FrameBuffer reply = new FrameBuffer(64 * 1024);
  private static final int KEEP_AT_MOST = 64 << 20;

  /** @param shared memory shared with the client, or null */
  CallerSession(ActorHost host, BlobStore blobs, ClientStreams client, SharedLink shared) {
    this.host = host;
    this.shared = shared;
    if (shared != null) {
      shared.checkRoomWith(PayloadRoom::checkShared);
    }
    this.blobs = blobs;
    this.in = client.in();
    this.out = client.out();
    this.moreWaiting = client.moreWaiting();
  }

  /** Returns when the client closes the actor (true) or the connection ends (false). */
  boolean run() {
    try {
      while (true) {
        Frames.Frame f = Frames.read(in, received, PayloadRoom::check);
        if (f.payload() != received && f.payload().length <= KEEP_AT_MOST) {
          received = f.payload();
        }
        byte type = Frames.RESULT;
        reply.reset(KEEP_AT_MOST);
        SharedLink.Lease lease = shared == null ? SharedLink.Lease.NONE : shared.lease();
        try {
          handle(f, lease);
        } catch (CallFailure e) {
          type = Frames.ERROR;
          error(e);
        } catch (RuntimeException e) {
          // a bug of parl's own, not the actor's (whose exceptions arrive as CallFailure): say so
          type = Frames.ERROR;
          error(new CallFailure(INVALID, "the job failed on this request: " + e, e));
        } finally {
          if (shared != null) {
            shared.received(f.id()); // its arrays have been copied out: the client may use the half again
          }
        }
        if (type == Frames.RESULT) {
          lease.commit(f.id());
        } else {
          lease.abandon();
        }
        // answers to a pipelined burst leave together: flush when no request is waiting
        reply.writeFrame(out, type, f.id(), !moreWaiting.getAsBoolean() || f.type() == Frames.CLOSE);
        if (f.type() == Frames.CLOSE) {
          return true;
        }
      }
    } catch (EOFException e) {
      // the client went away
    } catch (PayloadRoom.Refused e) {
      JobMain.stop(e.getMessage());
    } catch (IOException e) {
      JobMain.log("connection to the client failed: " + e.getMessage());
    }
    return false;
  }

  private void error(CallFailure e) {
    reply.reset(KEEP_AT_MOST);
    byte[] error = ErrorPayload.of(e);
    reply.write(error, 0, error.length);
  }

  /** Handles one frame; its answer, if any, goes to {@link #reply}. */
  private void handle(Frames.Frame f, SharedLink.Lease lease) throws CallFailure {
    switch (f.type()) {
      case Frames.CALL -> {
        CALLS.incrementAndGet();
        host.call(f, reply, shared, lease);
      }
      case Frames.GET -> host.get(f, reply, lease);
      case Frames.SET -> host.set(f, shared);
      case Frames.BLOB -> {
        try {
          String hash = Frames.name(f.payload(), f.length());
          int offset = Frames.restOffset(f.payload(), f.length());
          blobs.put(hash, f.payload(), offset, f.length() - offset);
        } catch (IOException e) {
          throw new CallFailure(INVALID, "shipped code rejected: " + e.getMessage());
        }
      }
      case Frames.CREATE -> {
        host.create(f);
        JobMain.log("actor " + host.describe() + " created");
      }
      case Frames.CLOSE -> {
        // answered with an empty result, then the session ends
      }
      default -> throw new CallFailure(INVALID, "unknown frame type " + f.type());
    }
  }
}
