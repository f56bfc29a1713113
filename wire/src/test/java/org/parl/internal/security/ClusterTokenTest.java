package org.parl.internal.security;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.AuthenticationException;

class ClusterTokenTest {

  private static final String A = "a".repeat(64);
  private static final String B = "b".repeat(64);

  @TempDir
  Path dir;

  private Path file(String name, String content, String perms) throws Exception {
    Path f = dir.resolve(name);
    Files.writeString(f, content);
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(perms));
    return f;
  }

  @Test
  void lookupOrderIsFileThenTokenThenTokenFileThenHome() throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    file("home/token", A, "rw-------");
    Path other = file("other", B + "\n", "rw-------");
    Map<String, String> env = Map.of("PARL_HOME", home.toString());
    assertEquals(home.resolve("token").toString(), ClusterToken.find(null, env).source());
    assertEquals("PARL_TOKEN_FILE=" + other,
        ClusterToken.find(null, Map.of("PARL_HOME", home.toString(), "PARL_TOKEN_FILE", other.toString())).source());
    assertEquals("PARL_TOKEN", ClusterToken.find(null,
        Map.of("PARL_HOME", home.toString(), "PARL_TOKEN_FILE", other.toString(), "PARL_TOKEN", B)).source());
    assertEquals("--token-file " + home.resolve("token"), ClusterToken.find(home.resolve("token"),
        Map.of("PARL_TOKEN", B)).source());
    // the same secret, wherever it was found, derives the same keys
    assertArrayEquals(ClusterToken.find(null, Map.of("PARL_TOKEN", B)).derive("x"),
        ClusterToken.find(other, Map.of()).derive("x"));
  }

  @Test
  void missingTokenSaysWhereItLooked() {
    Map<String, String> env = Map.of("PARL_HOME", dir.resolve("nowhere").toString());
    AuthenticationException e = assertThrows(AuthenticationException.class, () -> ClusterToken.find(null, env));
    assertTrue(e.getMessage().contains("--token-file") && e.getMessage().contains("PARL_TOKEN")
        && e.getMessage().contains("PARL_TOKEN_FILE") && e.getMessage().contains(dir.resolve("nowhere/token").toString()),
        e.getMessage());
  }

  @Test
  void looseOrBadFilesAreRefusedWithWhatToDo() throws Exception {
    Path loose = file("loose", A, "rw-r--r--");
    AuthenticationException e = assertThrows(AuthenticationException.class, () -> ClusterToken.find(loose, Map.of()));
    assertTrue(e.getMessage().contains("chmod 600 " + loose), e.getMessage());
    Path shortToken = file("short", "tooshort", "rw-------");
    assertThrows(AuthenticationException.class, () -> ClusterToken.find(shortToken, Map.of()));
    assertThrows(AuthenticationException.class, () -> ClusterToken.find(dir.resolve("absent"), Map.of()));
    assertThrows(AuthenticationException.class, () -> ClusterToken.find(dir, Map.of()));
    Path huge = file("huge", "x".repeat(10_000), "rw-------");
    assertThrows(AuthenticationException.class, () -> ClusterToken.find(huge, Map.of()));
  }

  @Test
  void tokensBelow256BitsAreRefusedWithHowToMakeOne() {
    // what counts: 64+ hex digits, or 43+ base64 / base64url characters (padding not counted)
    ClusterToken.of("0123456789abcdef".repeat(4), "hex");
    ClusterToken.of("AbC-_".repeat(8) + "xyz", "base64url");
    ClusterToken.of("Ab+/9".repeat(8) + "xyz=", "base64 with padding");
    String[][] refused = {
        {"0123456789abcdef".repeat(4).substring(1), "it has 63 hex digits (252 bits)"},
        {"AbC-_".repeat(8) + "xy", "it has 42 base64url characters (252 bits)"},
        {"AbC-_".repeat(8) + "xy==", "it has 42 base64url characters (252 bits)"},
        {"correct horse battery staple, long enough for 32", "it contains spaces"},
        {"p@ssw0rd!".repeat(6), "neither hex digits nor base64url"},
        {"a".repeat(5000), "longer than 4096 characters"},
    };
    for (String[] r : refused) {
      AuthenticationException e = assertThrows(AuthenticationException.class, () -> ClusterToken.of(r[0], "PARL_TOKEN"));
      assertTrue(e.getMessage().startsWith("the cluster token from PARL_TOKEN is refused: " + r[1])
          || e.getMessage().contains(r[1]), e.getMessage());
      assertTrue(e.getMessage().contains("at least 256 bits, as 64+ hex digits or 43+ base64url characters"),
          e.getMessage());
      assertTrue(e.getMessage().contains("openssl rand -hex 32"), e.getMessage());
      assertFalse(e.getMessage().contains(r[0]), "the refused value is never shown");
    }
  }

  @Test
  void masterCreatesAPrivateTokenOnceAndSaysSo() throws Exception {
    Map<String, String> env = Map.of("PARL_HOME", dir.resolve("fresh").toString());
    List<String> said = new ArrayList<>();
    ClusterToken first = ClusterToken.findOrCreate(null, env, said::add);
    Path token = dir.resolve("fresh/token");
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(token)));
    assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(token.getParent())),
        "PARL_HOME is created private");
    assertEquals(64, Files.readString(token).strip().length());
    assertEquals(1, said.size());
    assertTrue(said.get(0).contains(token.toString()), said.get(0));
    ClusterToken again = ClusterToken.findOrCreate(null, env, said::add);
    assertEquals(1, said.size(), "an existing token is reused, not replaced");
    assertArrayEquals(first.derive("k"), again.derive("k"));
    // a token given in the environment is used and no file is made
    ClusterToken.findOrCreate(null, Map.of("PARL_HOME", dir.resolve("other").toString(), "PARL_TOKEN", A), said::add);
    assertFalse(Files.exists(dir.resolve("other/token")));
  }

  @Test
  void proofsBindLabelAndPartsAndNeedTheToken() {
    ClusterToken a = ClusterToken.of(A, "test");
    ClusterToken b = ClusterToken.of(B, "test");
    byte[] n1 = ClusterToken.nonce(16);
    byte[] n2 = ClusterToken.nonce(16);
    byte[] p = a.proof("client", n1, n2);
    assertTrue(a.verify(p, "client", n1, n2));
    assertFalse(b.verify(p, "client", n1, n2), "another token cannot verify");
    assertFalse(a.verify(p, "server", n1, n2), "a proof for one purpose is not one for another");
    assertFalse(a.verify(p, "client", n2, n1), "nonces are bound in order");
    assertFalse(a.verify(null, "client", n1, n2));
    assertFalse(a.toString().contains(A), "the token never shows in messages");
  }
}
