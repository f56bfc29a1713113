package org.parl.job;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.internal.wire.DataMessage;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.Hashes;

class ActorCodeTest {

  @TempDir
  Path tmp;

  private ActorCode code() throws Exception {
    return new ActorCode(new BlobStore(tmp.resolve("blobs")), Files.createDirectories(tmp.resolve("work")),
        Libraries.none());
  }

  private String store(byte[] data) throws Exception {
    String hash = Hashes.sha256(data, 0, data.length);
    new BlobStore(tmp.resolve("blobs")).put(hash, data, 0, data.length);
    return hash;
  }

  @Test
  void placesShippedFilesUnderTheWorkingDirectory() throws Exception {
    byte[] data = {1, 2, 3};
    String hash = store(data);
    code().placeFiles(List.of(new DataMessage.ShippedFile("conf/a.bin", hash)));
    assertArrayEquals(data, Files.readAllBytes(tmp.resolve("work/conf/a.bin")));
  }

  @Test
  void refusesNamesThatLeaveTheWorkingDirectory() throws Exception {
    String hash = store(new byte[] {4});
    for (String name : List.of("../escape", "/etc/passwd", "a/../../escape", "", ".", "a\0b")) {
      CallFailure f = assertThrows(CallFailure.class,
          () -> code().placeFiles(List.of(new DataMessage.ShippedFile(name, hash))), name);
      assertEquals(ErrorKind.INVALID, f.kind);
    }
    assertTrue(Files.notExists(tmp.resolve("escape")));
  }

  @Test
  void refusesBlobsThatWereNotShipped() throws Exception {
    String absent = "0".repeat(64);
    assertEquals(ErrorKind.INVALID, assertThrows(CallFailure.class, () -> code().loader(List.of(absent))).kind);
    assertEquals(ErrorKind.INVALID, assertThrows(CallFailure.class,
        () -> code().placeFiles(List.of(new DataMessage.ShippedFile("x", absent)))).kind);
  }
}
