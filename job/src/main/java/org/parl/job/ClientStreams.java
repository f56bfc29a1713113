package org.parl.job;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.function.BooleanSupplier;
import org.parl.internal.wire.FrameKeys;
import org.parl.internal.wire.SealedInput;

/**
 * The streams of an authenticated client's connection, as the session reads and writes frames:
 * sealed ({@link FrameKeys}) without TLS, so that every frame is checked before it is read, as
 * they were during the handshake with TLS.
 *
 * @param moreWaiting whether bytes of a following frame have already been received (answers to a
 *     pipelined burst then leave together)
 */
record ClientStreams(DataInputStream in, OutputStream out, BooleanSupplier moreWaiting) {

  /**
   * The streams after the handshake.
   *
   * @param buffered the connection's input as the handshake read it (it may hold bytes already received)
   * @param out the handshake's output (flushed), used as it is with TLS
   * @param keys the connection's frame keys, null with TLS
   */
  static ClientStreams of(Socket s, ClientInput buffered, OutputStream out, FrameKeys keys) throws IOException {
    if (keys == null) {
      return new ClientStreams(new DataInputStream(buffered), out, buffered::hasBuffered);
    }
    SealedInput sealed = keys.jobInput(buffered);
    return new ClientStreams(new DataInputStream(sealed), keys.jobOutput(s.getOutputStream()),
        () -> sealed.hasBuffered() || buffered.hasBuffered());
  }
}
