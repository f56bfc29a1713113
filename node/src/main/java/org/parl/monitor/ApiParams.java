package org.parl.monitor;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.parl.internal.wire.Checks;

/**
 * Checks what a browser or a script puts into monitor URLs before anything else looks at it.
 * Job ids must be exactly {@code job-<digits>}: anything else (dots, slashes, encoded or not) is
 * an unknown job. The id is only ever used to ask workers, which find a job's log file in their
 * own table, never from the id.
 */
public final class ApiParams {

  /** Lines of a log the pages show, and the most one request may ask for. */
  public static final int DEFAULT_LINES = 500;
  public static final int MAX_LINES = 10_000;

  private static final Pattern JOB_ID = Pattern.compile("job-[0-9]{1,18}");
  private static final Pattern CLIENT_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
  private static final Pattern WORKER_ID = CLIENT_ID;

  private ApiParams() {}

  /** A drain or undrain an operator asked for. */
  record Drain(String workerId, Integer gpu, boolean drained) {}

  /** Longest body {@code POST /api/drain} reads. */
  static final int DRAIN_BODY_LIMIT = 1024;

  /**
   * The body of {@code POST /api/drain}.
   *
   * @throws ApiError 415 when it is not JSON, 400 when it is malformed or names no worker
   */
  static Drain drain(String contentType, String body) {
    if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      throw new ApiError(415, "send the drain as JSON (Content-Type: application/json): "
          + "{\"worker\": \"w-...\", \"gpu\": 0, \"drained\": true}");
    }
    JsonObject json;
    try {
      json = new JsonObject(body == null ? "" : body);
    } catch (RuntimeException e) {
      throw ApiError.badRequest("the drain is not a JSON object: {\"worker\": \"w-...\", \"gpu\": 0, \"drained\": true}");
    }
    Object worker = json.getValue("worker");
    Object gpu = json.getValue("gpu");
    Object drained = json.getValue("drained");
    if (!(worker instanceof String w) || !WORKER_ID.matcher(w).matches()) {
      throw ApiError.badRequest("name the worker to drain as /api/cluster lists it (\"worker\": \"w-...\")");
    }
    if (gpu != null && !(gpu instanceof Integer g && g >= 0 && g <= Checks.MAX_ID)) {
      throw ApiError.badRequest("\"gpu\" is a GPU id (0, 1, ...) of the worker, or absent for the whole worker");
    }
    if (!(drained instanceof Boolean d)) {
      throw ApiError.badRequest("say \"drained\": true to drain, false to put it back in service");
    }
    return new Drain(w, (Integer) gpu, d);
  }

  /** @throws ApiError 404 unless {@code raw} is a well-formed job id */
  public static String jobId(String raw) {
    if (raw == null || !JOB_ID.matcher(raw).matches()) {
      throw ApiError.notFound("no job " + quote(raw) + ": job ids look like job-12");
    }
    return raw;
  }

  /** @throws ApiError 400 when the parameter is missing, 404 when it cannot be a client id */
  public static String clientId(List<String> values) {
    if (values == null || values.isEmpty() || values.get(0).isEmpty()) {
      throw ApiError.badRequest("name a client: /api/jobs?client=ID (the ids are listed by /api/cluster)");
    }
    String raw = values.get(0);
    if (!CLIENT_ID.matcher(raw).matches()) {
      throw ApiError.notFound("no client " + quote(raw));
    }
    return raw;
  }

  /** The {@code lines} parameter: {@value #DEFAULT_LINES} when absent, else 1..{@value #MAX_LINES}. */
  public static int lines(List<String> values) {
    if (values == null || values.isEmpty()) {
      return DEFAULT_LINES;
    }
    String raw = values.get(0);
    if (raw.length() > 6 || !raw.matches("-?[0-9]+")) {
      throw ApiError.badRequest("lines must be a whole number between 1 and " + MAX_LINES + ", not " + quote(raw));
    }
    int n = Integer.parseInt(raw);
    if (n < 1 || n > MAX_LINES) {
      throw ApiError.badRequest("lines must be between 1 and " + MAX_LINES + ", not " + n);
    }
    return n;
  }

  /**
   * True when a request's raw path climbs out of where it points ({@code ..} segments, plain or
   * percent-encoded, or encoded slashes and backslashes): such requests are answered 404 before
   * routing, so that {@code /api/jobs/../../x} cannot land on another route or a static file.
   */
  public static boolean traverses(String rawPath) {
    if (rawPath == null) {
      return false;
    }
    String p = rawPath.toLowerCase(Locale.ROOT).replace("%2e", ".").replace("%2f", "/").replace("%5c", "/").replace('\\', '/');
    for (String segment : p.split("/", -1)) {
      if (segment.equals("..") || segment.equals(".")) {
        return true;
      }
    }
    return false;
  }

  /** A user-supplied value made safe to echo in an error message. */
  static String quote(String raw) {
    if (raw == null) {
      return "''";
    }
    String s = raw.length() > 40 ? raw.substring(0, 40) + "..." : raw;
    return "'" + s.replaceAll("[^\\x20-\\x7e]", "?") + "'";
  }
}
