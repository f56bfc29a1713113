package org.parl.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON body of an ERROR frame: the kind (an {@link org.parl.wire.ErrorKind} name), the message,
 * and the remote exception with its stack trace.
 */
final class ErrorPayload {

  private static final ObjectMapper JSON = JobJson.MAPPER;

  private ErrorPayload() {}

  static byte[] of(CallFailure f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", f.kind.name());
    m.put("message", f.getMessage());
    Throwable t = f.getCause();
    if (t != null) {
      m.put("exception", t.getClass().getName());
      m.put("exceptionMessage", t.getMessage());
      List<Map<String, Object>> stack = new ArrayList<>();
      for (StackTraceElement e : t.getStackTrace()) {
        String c = e.getClassName();
        if (c.startsWith("org.parl.job.")) {
          break;
        }
        if (c.startsWith("jdk.internal.reflect.") || c.startsWith("java.lang.reflect.")) {
          continue;
        }
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("class", e.getClassName());
        s.put("method", e.getMethodName());
        s.put("file", e.getFileName());
        s.put("line", e.getLineNumber());
        stack.add(s);
      }
      m.put("stack", stack);
    }
    try {
      return JSON.writeValueAsBytes(m);
    } catch (Exception e) {
      return ("{\"kind\":\"" + f.kind.name() + "\",\"message\":\"unreportable error\"}").getBytes(StandardCharsets.UTF_8);
    }
  }
}
