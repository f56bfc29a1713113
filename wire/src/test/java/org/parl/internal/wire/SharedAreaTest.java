package org.parl.internal.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SharedAreaTest {

  private static final int SIZE = 1 << 20;

  @TempDir
  Path dir;

  @Test
  void onlyItsOwnerCanReachTheFile() throws IOException {
    try (SharedArea area = SharedArea.create(dir, SIZE)) {
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(area.file(), LinkOption.NOFOLLOW_LINKS)));
      assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(area.file().getParent())));
      assertEquals(SIZE, Files.size(area.file()));
    }
  }

  @Test
  void bothSidesSeeTheSameBytesAndKeepThemAfterTheUnlink() throws IOException {
    try (SharedArea mine = SharedArea.create(dir, SIZE); SharedArea theirs = SharedArea.open(mine.file(), SIZE)) {
      mine.unlink();
      theirs.unlink();
      assertFalse(Files.exists(mine.file()));
      assertFalse(Files.exists(mine.file().getParent()));
      ByteBuffer out = mine.slice(SIZE - 8, 8);
      out.putLong(0, 0x0102030405060708L);
      assertEquals(0x0102030405060708L, theirs.slice(SIZE - 8, 8).getLong(0));
    }
  }

  @Test
  void closingRemovesTheFileAndItsDirectory() throws IOException {
    Path file;
    try (SharedArea area = SharedArea.create(dir, SIZE)) {
      file = area.file();
      assertTrue(Files.exists(file));
    }
    assertFalse(Files.exists(file));
    assertFalse(Files.exists(file.getParent()));
  }

  @Test
  void offsetsAndLengthsOutsideTheAreaAreRefused() throws IOException {
    try (SharedArea area = SharedArea.create(dir, SIZE)) {
      assertEquals(SIZE, area.slice(0, SIZE).remaining());
      assertEquals(0, area.slice(SIZE, 0).remaining());
      assertThrows(BadFrameException.class, () -> area.slice(-1, 1));
      assertThrows(BadFrameException.class, () -> area.slice(0, -1));
      assertThrows(BadFrameException.class, () -> area.slice(0, SIZE + 1L));
      assertThrows(BadFrameException.class, () -> area.slice(SIZE, 1));
      assertThrows(BadFrameException.class, () -> area.slice(SIZE + 1L, 0));
      assertThrows(BadFrameException.class, () -> area.slice(1, Long.MAX_VALUE));
      assertThrows(BadFrameException.class, () -> area.slice(Long.MAX_VALUE, 2));
      assertThrows(BadFrameException.class, () -> area.slice(Integer.MAX_VALUE + 1L, 0));
    }
  }

  @Test
  void aFileOthersCanReadIsNotMapped() throws IOException {
    Path open = dir.resolve("open");
    Files.write(open, new byte[SIZE]);
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
    assertThrows(IOException.class, () -> SharedArea.open(open, SIZE));
  }

  @Test
  void aLinkOrAWrongSizeIsNotMapped() throws IOException {
    try (SharedArea area = SharedArea.create(dir, SIZE)) {
      Path link = Files.createSymbolicLink(dir.resolve("link"), area.file());
      assertThrows(IOException.class, () -> SharedArea.open(link, SIZE));
      assertThrows(IOException.class, () -> SharedArea.open(area.file(), SIZE * 2));
      assertThrows(IOException.class, () -> SharedArea.open(area.file(), 0));
    }
  }
}
