package org.parl.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.parl.wire.Frames;

/**
 * Serves the one client of a job: frames are handled in arrival order on this thread, so calls
 * run in the order they were sent and each reply goes out before the next call starts.
 */
final class ClientSession {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** Calls served by this process, reported to the worker with each pong. */
  static final java.util.concurrent.atomic.AtomicLong CALLS = new java.util.concurrent.atomic.AtomicLong();

  private final ActorHost host;
  private final DataInputStream in;
  private final OutputStream out;
  private final BlobStore blobs;

  ClientSession(ActorHost host, BlobStore blobs, DataInputStream in, OutputStream out) {
    this.host = host;
    this.blobs = blobs;
    this.in = in;
    this.out = out;
  }

  /** Answers a valid HELLO with the job's id and the blobs this host still lacks. */
  static void answerHello(Map<?, ?> hello, BlobStore blobs, OutputStream out, String jobId, long id) throws IOException {
    List<String> missing = new ArrayList<>();
    if (hello.get("blobs") instanceof List<?> wanted) {
      for (Object h : wanted) {
        if (h instanceof String hash && !blobs.has(hash)) {
          missing.add(hash);
        }
      }
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("jobId", jobId);
    answer.put("pid", ProcessHandle.current().pid());
    answer.put("missing", missing);
    Frames.write(out, Frames.RESULT, id, JSON.writeValueAsBytes(answer));
  }

  /** Returns when the client closes the actor or the connection ends. */
  void run() {
    try {
      while (true) {
        Frames.Frame f = Frames.read(in);
        byte type = Frames.RESULT;
        byte[] reply;
        try {
          reply = handle(f);
        } catch (CallFailure e) {
          type = Frames.ERROR;
          reply = ErrorPayload.of(e);
        }
        // answers to a pipelined burst leave together: flush when no request is waiting
        Frames.write(out, type, f.id(), reply, reply.length, in.available() == 0 || f.type() == Frames.CLOSE);
        if (f.type() == Frames.CLOSE) {
          return;
        }
      }
    } catch (EOFException e) {
      // the client went away
    } catch (IOException e) {
      JobMain.log("connection to the client failed: " + e.getMessage());
    }
  }

  private byte[] handle(Frames.Frame f) throws CallFailure, IOException {
    switch (f.type()) {
      case Frames.CALL:
        CALLS.incrementAndGet();
        return host.call(f.payload());
      case Frames.GET:
        return host.get(f.payload());
      case Frames.SET:
        host.set(f.payload());
        return new byte[0];
      case Frames.BLOB:
        String hash = Frames.name(f.payload());
        int offset = Frames.restOffset(f.payload());
        try {
          blobs.put(hash, f.payload(), offset, f.payload().length - offset);
        } catch (IOException e) {
          throw new CallFailure("invalid", "shipped code rejected: " + e.getMessage());
        }
        return new byte[0];
      case Frames.CREATE:
        host.create(f.payload());
        JobMain.log("actor " + host.describe() + " created");
        return new byte[0];
      case Frames.CLOSE:
        return new byte[0];
      default:
        throw new CallFailure("invalid", "unknown frame type " + f.type());
    }
  }
}
