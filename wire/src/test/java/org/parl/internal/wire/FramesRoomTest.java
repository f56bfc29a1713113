package org.parl.internal.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A reader's room check sees a payload's length before an array is allocated for it, and only then. */
class FramesRoomTest {

  private static DataInputStream frame(int payloadBytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] payload = new byte[payloadBytes];
    payload[payloadBytes - 1] = 7;
    Frames.write(out, Frames.CALL, 42, payload);
    return new DataInputStream(new ByteArrayInputStream(out.toByteArray()));
  }

  @Test
  void aPayloadThatFitsTheReusedBufferIsNotChecked() throws IOException {
    List<Integer> checked = new ArrayList<>();
    byte[] reuse = new byte[100];
    Frames.Frame f = Frames.read(frame(50), reuse, checked::add);
    assertSame(reuse, f.payload());
    assertEquals(50, f.length());
    assertEquals(List.of(), checked);
  }

  @Test
  void aLargerPayloadIsCheckedThenRead() throws IOException {
    List<Integer> checked = new ArrayList<>();
    Frames.Frame f = Frames.read(frame(500), new byte[100], checked::add);
    assertEquals(List.of(500), checked);
    assertEquals(42, f.id());
    byte[] expected = new byte[500];
    expected[499] = 7;
    assertArrayEquals(expected, f.payload());
  }

  @Test
  void aRefusalLeavesThePayloadUnread() throws IOException {
    DataInputStream in = frame(500);
    IOException refused = assertThrows(IOException.class, () -> Frames.read(in, new byte[100], n -> {
      throw new IOException("no room for " + n);
    }));
    assertEquals("no room for 500", refused.getMessage());
    assertEquals(500, in.available(), "nothing was read past the header");
  }
}
