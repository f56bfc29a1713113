package org.parl.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.parl.internal.wire.Checks;
import org.parl.internal.wire.DataMessage;
import org.parl.internal.wire.DataMessageCodec;
import org.parl.internal.wire.ErrorKind;

class ErrorPayloadTest {

  private static DataMessage.Failure payload(CallFailure f) {
    byte[] body = ErrorPayload.of(f);
    return DataMessageCodec.failure(body, body.length);
  }

  @Test
  void kindIsTheSharedVocabularyName() {
    for (ErrorKind kind : new ErrorKind[] {ErrorKind.REMOTE, ErrorKind.SERIALIZATION, ErrorKind.ATTRIBUTE, ErrorKind.INVALID}) {
      DataMessage.Failure p = payload(new CallFailure(kind, "why"));
      assertEquals(new DataMessage.Failure(kind, "why"), p, "no cause, no exception part");
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
    DataMessage.Failure p = payload(new CallFailure(ErrorKind.REMOTE, "Counter.add(int) threw", thrown));
    assertEquals(ErrorKind.REMOTE, p.kind());
    assertEquals(IllegalStateException.class.getName(), p.exception());
    assertEquals("boom", p.exceptionMessage());
    assertEquals(List.of(new DataMessage.StackFrame("com.user.Counter", "add", "Counter.java", 12)), p.stack());
  }

  @Test
  void whatTheActorMadeIsClippedToWhatAClientAccepts() {
    String huge = String.join("", Collections.nCopies(Checks.MAX_TEXT + 10, "x"));
    IllegalStateException thrown = new IllegalStateException(huge);
    StackTraceElement[] deep = new StackTraceElement[DataMessage.MAX_STACK + 5];
    java.util.Arrays.fill(deep, new StackTraceElement("com.user.Deep", "recurse", null, 3));
    thrown.setStackTrace(deep);
    DataMessage.Failure p = payload(new CallFailure(ErrorKind.REMOTE, "threw " + huge, thrown));
    assertEquals(Checks.MAX_TEXT, p.message().length());
    assertEquals(Checks.MAX_TEXT, p.exceptionMessage().length());
    assertEquals(DataMessage.MAX_STACK, p.stack().size());
    assertNull(p.stack().get(0).file());
  }
}
