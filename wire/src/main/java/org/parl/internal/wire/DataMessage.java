package org.parl.internal.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;

/**
 * The JSON messages of the data connection between a client and its job ({@link Frames}), named
 * by their {@code type}; {@link DataMessageCodec} encodes and checks them. Calls and their results
 * are binary ({@link ValueCodec}); these are the rest:
 *
 * <pre>
 *   client -&gt; job     HELLO   Hello      its proof, and the code blobs it may ship ({@link DataAuth})
 *   job    -&gt; client  RESULT  Welcome    the job's proof, and the blobs this host lacks
 *   client -&gt; job     CREATE  Create     the header of the actor's creation (before its constructor's arguments)
 *   job    -&gt; client  ERROR   Failure    why a request failed, or why the connection was refused
 * </pre>
 *
 * <p>The records bound what they carry and check the form of nonces and proofs; whether a proof
 * is right, whether a blob was shipped and whether a file name stays in the working directory is
 * for the receiving end to decide.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
public sealed interface DataMessage {

  /**
   * Most code blobs a {@link Hello} lists, and so a {@link Welcome} reports missing: with their
   * hashes both stay under the limit of frames before authentication ({@link Frames#PRE_AUTH_MAX_PAYLOAD}).
   * A client ships the blobs it could not list without asking.
   */
  int MAX_LISTED = 800;
  /**
   * Most code blobs, and most files, a {@link Create} names. More than a create header (at most
   * 64 KiB, the name of a {@link Frames#named} payload) can hold: the header's size is the real bound.
   */
  int MAX_SHIPPED = 4096;
  /** Most frames of a remote stack trace a {@link Failure} carries, as many as a JVM records by default. */
  int MAX_STACK = 1024;
  /** Longest path of an offered shared area ({@link Offer}), the longest path Linux accepts. */
  int MAX_PATH = 4096;

  /** What a client sends to a job. */
  sealed interface ToJob extends DataMessage {}

  /** What a job sends to a client. */
  sealed interface ToClient extends DataMessage {}

  /**
   * The client's HELLO, its answer to the job's challenge ({@link DataAuth}).
   *
   * @param protocol the client's {@link Frames#PROTOCOL}
   * @param nonce the client's fresh nonce, in hex
   * @param proof the client's proof over both nonces ({@link DataAuth#helloProof}), in hex
   * @param clientId the client's id
   * @param blobs hashes of the code blobs the client may ship: the job answers which it lacks
   * @param shm a shared area offered for large arrays ({@link SharedLink}), or null
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Hello(@Required int protocol, String nonce, String proof, String clientId, List<String> blobs, Offer shm)
      implements ToJob {
    public Hello {
      Checks.range("protocol", protocol, 1, Integer.MAX_VALUE);
      Checks.hex32("nonce", nonce);
      Checks.hex32("proof", proof);
      Checks.name("clientId", clientId);
      blobs = Checks.names("blobs", blobs, MAX_LISTED);
    }
  }

  /** A shared area a client on the job's host offers: its file, and its size in bytes. */
  record Offer(String file, @Required int size) {
    public Offer {
      Checks.present("file", file);
      Checks.text("file", file, MAX_PATH);
      Checks.range("size", size, 1, Integer.MAX_VALUE);
    }
  }

  /**
   * The job's answer to a HELLO whose proof checked out.
   *
   * @param jobId the job the process runs now
   * @param pid the job process's id
   * @param missing the hashes among the HELLO's blobs that this host lacks: the client ships them
   * @param proof the job's proof over both nonces ({@link DataAuth#welcomeProof}), in hex
   * @param shm whether the job mapped the shared area offered; null when none was offered
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Welcome(String jobId, @Required long pid, List<String> missing, String proof, Boolean shm) implements ToClient {
    public Welcome {
      Checks.name("jobId", jobId);
      Checks.range("pid", pid, 1, Long.MAX_VALUE);
      missing = Checks.names("missing", missing, MAX_LISTED);
      Checks.hex32("proof", proof);
    }
  }

  /**
   * The JSON header of a CREATE frame: the actor's interface, class and constructor, the code blobs
   * its class loader is made of, and the files for its working directory.
   *
   * @param api the remote interface's name
   * @param impl the actor class's name
   * @param ctor the constructor's signature, as {@link Signatures} writes it
   * @param code hashes of the blobs of the actor's class path, in order
   * @param files the distributed files (absent means none)
   */
  record Create(String api, String impl, String ctor, List<String> code, List<ShippedFile> files) implements ToJob {
    public Create {
      nonEmpty("api", api);
      nonEmpty("impl", impl);
      nonEmpty("ctor", ctor);
      code = Checks.names("code", Checks.present("code", code), MAX_SHIPPED);
      files = Checks.list("files", files, MAX_SHIPPED);
    }
  }

  /** A distributed file: where it goes in the working directory, and the blob that holds it. */
  record ShippedFile(String name, String hash) {
    public ShippedFile {
      Checks.present("name", name);
      Checks.text("name", name, Checks.MAX_STRING);
      Checks.name("hash", hash);
    }
  }

  /**
   * The body of an ERROR frame: the kind of failure, which the client turns into the matching
   * exception, and for {@link ErrorKind#REMOTE} the exception the actor's code threw.
   *
   * @param message why, or null
   * @param exception the remote exception's class name, or null
   * @param exceptionMessage the remote exception's message, or null
   * @param stack its frames in the actor's code (absent means none)
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Failure(ErrorKind kind, String message, String exception, String exceptionMessage, List<StackFrame> stack)
      implements ToClient {
    public Failure {
      Checks.present("kind", kind);
      Checks.text("message", message, Checks.MAX_TEXT);
      Checks.text("exception", exception, Checks.MAX_STRING);
      Checks.text("exceptionMessage", exceptionMessage, Checks.MAX_TEXT);
      stack = Checks.list("stack", stack, MAX_STACK);
    }

    /** A failure without a remote exception. */
    public Failure(ErrorKind kind, String message) {
      this(kind, message, null, null, null);
    }
  }

  /**
   * One frame of a remote stack trace, as {@link StackTraceElement} has it.
   *
   * @param file the source file, or null
   * @param line the line, negative when unknown
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record StackFrame(@JsonProperty("class") String className, String method, String file, @Required int line) {
    public StackFrame {
      Checks.present("class", className);
      Checks.text("class", className, Checks.MAX_STRING);
      Checks.present("method", method);
      Checks.text("method", method, Checks.MAX_STRING);
      Checks.text("file", file, Checks.MAX_STRING);
    }
  }

  /** A non-empty string short enough for a create header (whose size bounds it anyway). */
  private static void nonEmpty(String field, String value) {
    if (value == null || value.isEmpty()) {
      throw new BadMessageException("field '" + field + "' must be a non-empty string");
    }
    Checks.text(field, value, Checks.MAX_TEXT);
  }
}
