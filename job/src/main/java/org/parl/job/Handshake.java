package org.parl.job;

import static org.parl.wire.ErrorKind.INVALID;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.parl.wire.Frames;

/**
 * The HELLO that opens a data connection: the client presents the job's one-time token and its
 * protocol version, and learns which of its code blobs this host still lacks. Anything else gets
 * one ERROR frame that says why, and nothing more.
 */
final class Handshake {

  private static final ObjectMapper JSON = JobJson.MAPPER;

  private Handshake() {}

  /** Reads the HELLO and answers it; false when the connection must be closed. */
  static boolean accept(DataInputStream in, OutputStream out, String token, BlobStore blobs, String jobId) {
    try {
      Frames.Frame frame = Frames.read(in);
      Map<?, ?> hello = frame.type() == Frames.HELLO ? JSON.readValue(frame.payload(), Map.class) : Map.of();
      boolean tokenOk = hello.get("token") instanceof String offered
          && MessageDigest.isEqual(offered.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
      String refusal = !tokenOk ? "wrong token: this job belongs to another client"
          : !Integer.valueOf(Frames.PROTOCOL).equals(hello.get("protocol"))
              ? "this job speaks parl protocol " + Frames.PROTOCOL + " and the client " + hello.get("protocol")
                  + ": use the same parl version on clients and workers"
              : null;
      if (refusal == null) {
        answer(hello, blobs, out, jobId, frame.id());
        return true;
      }
      Frames.write(out, Frames.ERROR, frame.id(), ErrorPayload.of(new CallFailure(INVALID, refusal)));
    } catch (EOFException e) {
      // a probe that closed at once
    } catch (IOException | RuntimeException e) {
      JobMain.log("refused a connection: " + e.getMessage());
    }
    return false;
  }

  /** Answers a valid HELLO with the job's id and the blobs this host still lacks. */
  static void answer(Map<?, ?> hello, BlobStore blobs, OutputStream out, String jobId, long id) throws IOException {
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
}
