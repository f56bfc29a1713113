package org.parl.internal.wire;

/**
 * Encodes and decodes the lines of the control link between a worker and its job processes
 * ({@link JobControl}), with every check of the records; see {@link TypedJson}. Both ends use it:
 * the worker on its event loop, the job process on plain sockets (so it takes and gives bytes,
 * without Vert.x, which a job process does not load).
 */
public final class JobControlCodec {

  private static final TypedJson JSON = new TypedJson(JobControl.class);

  private JobControlCodec() {}

  /** Prepares every message type (see {@link TypedJson#warmUp()}); blocks for a while in a fresh JVM. */
  public static void warmUp() {
    JSON.warmUp();
  }

  /** One line as UTF-8 JSON, without its newline. */
  public static byte[] encode(JobControl message) {
    return JSON.encode(message);
  }

  /**
   * Decodes a line from the worker.
   *
   * @throws BadMessageException saying what is wrong with it, also for a message the worker does not send
   */
  public static JobControl.ToJob toJob(byte[] line) {
    return JSON.decode(line, JobControl.ToJob.class);
  }

  /**
   * Decodes a line from a job process.
   *
   * @throws BadMessageException saying what is wrong with it, also for a message a job does not send
   */
  public static JobControl.ToWorker toWorker(byte[] line) {
    return JSON.decode(line, JobControl.ToWorker.class);
  }

  /**
   * Whether a line that did not decode is at least one JSON object: a message of another kind, or
   * one with a bad field, rather than garbage. Each end ignores the first and takes the second as a
   * broken link.
   */
  public static boolean isObject(byte[] line) {
    try {
      JSON.tree(line, 0, line.length);
      return true;
    } catch (BadMessageException e) {
      return false;
    }
  }
}
