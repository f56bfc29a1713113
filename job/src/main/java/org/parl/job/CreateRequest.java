package org.parl.job;

import static org.parl.internal.wire.ErrorKind.INVALID;

import java.io.IOException;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.DataMessage;
import org.parl.internal.wire.DataMessageCodec;
import org.parl.internal.wire.Frames;

/** Reads the JSON header of a CREATE frame ({@link DataMessage.Create}), the name of its payload. */
final class CreateRequest {

  private CreateRequest() {}

  /**
   * @return the header, checked
   * @throws CallFailure of kind INVALID saying what is wrong with it
   */
  static DataMessage.Create of(Frames.Frame frame) throws CallFailure {
    int headerEnd;
    try {
      headerEnd = Frames.restOffset(frame.payload(), frame.length());
    } catch (IOException e) {
      throw new CallFailure(INVALID, "unreadable create request: " + e.getMessage());
    }
    try {
      return DataMessageCodec.create(frame.payload(), 2, headerEnd - 2);
    } catch (BadMessageException e) {
      throw new CallFailure(INVALID, "malformed create request: " + e.getMessage());
    }
  }
}
