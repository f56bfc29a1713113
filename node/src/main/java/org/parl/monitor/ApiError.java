package org.parl.monitor;

/**
 * A request the monitor answers with an HTTP error and a JSON body {@code {"error": message}}:
 * bad parameters (400), unknown ids (404), workers that do not answer (502/504).
 */
public final class ApiError extends RuntimeException {

  private final int status;

  public ApiError(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  public static ApiError badRequest(String message) {
    return new ApiError(400, message);
  }

  public static ApiError notFound(String message) {
    return new ApiError(404, message);
  }

  public int status() {
    return status;
  }
}
