package org.parl.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.parl.wire.ErrorKind;

class ErrorPayloadTest {

  private static JsonObject payload(CallFailure f) {
    return new JsonObject(new String(ErrorPayload.of(f), StandardCharsets.UTF_8));
  }

  @Test
  void kindIsTheSharedVocabularyName() {
    for (ErrorKind kind : new ErrorKind[] {ErrorKind.REMOTE, ErrorKind.SERIALIZATION, ErrorKind.ATTRIBUTE, ErrorKind.INVALID}) {
      JsonObject p = payload(new CallFailure(kind, "why"));
      assertEquals(kind.name(), p.getString("kind"));
      assertEquals(kind, ErrorKind.ofName(p.getString("kind")));
      assertEquals("why", p.getString("message"));
      assertFalse(p.containsKey("exception"), "no cause, no exception part");
    }
  }

  @Test
  void remoteExceptionKeepsTheUsersFramesOnly() {
    IllegalStateException thrown = new IllegalStateException("boom");
    thrown.setStackTrace(new StackTraceElement[] {
        new StackTraceElement("com.user.Counter", "add", "Counter.java", 12),
        new StackTraceElement("jdk.internal.reflect.DirectMethodHandleAccessor", "invoke", null, -1),
        new StackTraceElement("org.parl.job.ActorHost", "call", "ActorHost.java", 90),
        new StackTraceElement("org.parl.job.JobMain", "main", "JobMain.java", 1)});
    JsonObject p = payload(new CallFailure(ErrorKind.REMOTE, "Counter.add(int) threw", thrown));
    assertEquals("REMOTE", p.getString("kind"));
    assertEquals(IllegalStateException.class.getName(), p.getString("exception"));
    assertEquals("boom", p.getString("exceptionMessage"));
    assertEquals(1, p.getJsonArray("stack").size(), p.encode());
    assertTrue(p.getJsonArray("stack").getJsonObject(0).getString("class").equals("com.user.Counter"));
  }
}
