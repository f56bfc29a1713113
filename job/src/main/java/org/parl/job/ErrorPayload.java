package org.parl.job;

import java.util.ArrayList;
import java.util.List;
import org.parl.internal.wire.Checks;
import org.parl.internal.wire.DataMessage;
import org.parl.internal.wire.DataMessageCodec;

/**
 * The body of an ERROR frame ({@link DataMessage.Failure}): the kind, the message, and the remote
 * exception with its stack trace, down to the actor's own frames. What the actor's code made (its
 * exception's message, its class names) is clipped to what the client accepts.
 */
final class ErrorPayload {

  private ErrorPayload() {}

  static byte[] of(CallFailure f) {
    Throwable t = f.getCause();
    String message = clip(f.getMessage(), Checks.MAX_TEXT);
    if (t == null) {
      return DataMessageCodec.encode(new DataMessage.Failure(f.kind, message));
    }
    List<DataMessage.StackFrame> stack = new ArrayList<>();
    for (StackTraceElement e : t.getStackTrace()) {
      String c = e.getClassName();
      if (c.startsWith("org.parl.job.") || stack.size() == DataMessage.MAX_STACK) {
        break;
      }
      if (c.startsWith("jdk.internal.reflect.") || c.startsWith("java.lang.reflect.")) {
        continue;
      }
      stack.add(new DataMessage.StackFrame(clip(c, Checks.MAX_STRING), clip(e.getMethodName(), Checks.MAX_STRING),
          clip(e.getFileName(), Checks.MAX_STRING), e.getLineNumber()));
    }
    return DataMessageCodec.encode(new DataMessage.Failure(f.kind, message, clip(t.getClass().getName(), Checks.MAX_STRING),
        clip(t.getMessage(), Checks.MAX_TEXT), stack));
  }

  private static String clip(String s, int max) {
    return s == null || s.length() <= max ? s : s.substring(0, max);
  }
}
