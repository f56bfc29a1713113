package org.parl.job;

import java.io.BufferedInputStream;
import java.io.InputStream;

/**
 * The client's byte stream, buffered, able to tell whether more input is already in the buffer
 * without asking the socket (which {@code available()} does, one system call per frame).
 */
final class ClientInput extends BufferedInputStream {

  ClientInput(InputStream in) {
    super(in, 64 * 1024);
  }

  /** True when bytes of a following frame have already been received. */
  synchronized boolean hasBuffered() {
    return count > pos;
  }
}
