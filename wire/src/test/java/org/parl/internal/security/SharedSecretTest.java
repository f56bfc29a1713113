package org.parl.internal.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Per-job secrets: proofs over labelled, length-prefixed parts, and a hex form that never leaks in messages. */
class SharedSecretTest {

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aProofHoldsForTheSameSecretLabelAndPartsOnly() {
    SharedSecret s = SharedSecret.random();
    SharedSecret same = SharedSecret.ofHex(s.hex());
    byte[] proof = s.proof("parl data hello", b("n1"), b("n2"));
    assertArrayEquals(proof, same.proof("parl data hello", b("n1"), b("n2")));
    assertTrue(same.verify(proof, "parl data hello", b("n1"), b("n2")));
    assertFalse(same.verify(proof, "parl data welcome", b("n1"), b("n2")), "another purpose");
    assertFalse(same.verify(proof, "parl data hello", b("n1n"), b("2")), "parts are length-prefixed");
    assertFalse(SharedSecret.random().verify(proof, "parl data hello", b("n1"), b("n2")), "another secret");
    assertFalse(s.verify(null, "parl data hello", b("n1"), b("n2")));
  }

  @Test
  void onlyHexOfAUsefulLengthIsASecretAndMessagesNeverRepeatIt() {
    assertEquals(64, SharedSecret.random().hex().length());
    for (String bad : new String[] {null, "", "abc", "zz".repeat(32), "a".repeat(63), "a".repeat(258)}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SharedSecret.ofHex(bad));
      assertTrue(bad == null || bad.isEmpty() || !e.getMessage().contains(bad), e.getMessage());
    }
    assertFalse(SharedSecret.random().toString().matches(".*[0-9a-f]{32}.*"));
  }
}
