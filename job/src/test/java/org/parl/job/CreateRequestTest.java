package org.parl.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.parl.internal.wire.DataMessage;
import org.parl.internal.wire.DataMessageCodec;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.Frames;

/** The header of a CREATE frame is read from the name of its payload, and a bad one is an INVALID request that says why. */
class CreateRequestTest {

  private static Frames.Frame create(byte[] header) {
    byte[] payload = Frames.named(header, new byte[] {1, 2, 3});
    return new Frames.Frame(Frames.CREATE, 2, payload, payload.length);
  }

  @Test
  void theHeaderIsReadBeforeTheConstructorsArguments() throws CallFailure {
    DataMessage.Create header = new DataMessage.Create("com.x.Api", "com.x.Impl", "(int)", List.of("a".repeat(64)),
        List.of(new DataMessage.ShippedFile("conf/a.bin", "b".repeat(64))));
    assertEquals(header, CreateRequest.of(create(DataMessageCodec.encode(header))));
  }

  @Test
  void aBadHeaderIsAnInvalidRequestThatSaysWhy() {
    CallFailure f = assertThrows(CallFailure.class, () -> CreateRequest.of(create(
        "{\"type\":\"Create\",\"impl\":\"B\",\"ctor\":\"()\",\"code\":[]}".getBytes(java.nio.charset.StandardCharsets.UTF_8))));
    assertEquals(ErrorKind.INVALID, f.kind);
    assertEquals("malformed create request: field 'api' must be a non-empty string", f.getMessage());
    f = assertThrows(CallFailure.class, () -> CreateRequest.of(new Frames.Frame(Frames.CREATE, 2, new byte[] {0, 9, 1}, 3)));
    assertEquals(ErrorKind.INVALID, f.kind);
    assertEquals("unreadable create request: name length 9 runs past the payload", f.getMessage());
  }
}
