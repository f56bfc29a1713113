package org.parl.internal.security;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.parl.AuthenticationException;

/**
 * The cluster's one secret (docs/contract.md §9). Every node command and client finds it the same way, in this
 * order: an explicit file ({@code --token-file}, {@code ConnectOptions.setTokenFile}), the value in
 * {@code PARL_TOKEN}, the file named by {@code PARL_TOKEN_FILE}, then {@code $PARL_HOME/token}
 * ({@code PARL_HOME} defaults to {@code ~/.parl}). A token file readable by other users is refused.
 *
 * <p>The token itself never leaves the process: peers prove that they hold it with
 * {@link #proof} over fresh nonces, and every other secret (TLS keys, the Hazelcast cluster name)
 * is derived from it with {@link #derive}.
 */
public final class ClusterToken {

  public static final String TOKEN_ENV = "PARL_TOKEN";
  public static final String TOKEN_FILE_ENV = "PARL_TOKEN_FILE";
  public static final String HOME_ENV = "PARL_HOME";
  /** The least entropy a token may encode: 256 bits. */
  static final int MIN_BITS = 256;
  /** 256 bits as hex digits (4 bits each). */
  static final int MIN_HEX_DIGITS = MIN_BITS / 4;
  /** 256 bits as base64 or base64url characters (6 bits each), padding not counted: 43. */
  static final int MIN_BASE64_CHARS = (MIN_BITS + 5) / 6;
  /** How to make a token, said whenever one is refused. */
  static final String HOW_TO_MAKE = "make a new one with: openssl rand -hex 32 (or remove the file and let "
      + "bin/parl master create it)";
  private static final int MAX_LENGTH = 4096;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final byte[] secret;
  private final String source;

  private ClusterToken(String value, String source) {
    this.secret = value.getBytes(StandardCharsets.UTF_8);
    this.source = source;
  }

  /** Where the token came from, for messages (never the token itself). */
  public String source() {
    return source;
  }

  /**
   * Finds the token as docs/contract.md §9 says.
   *
   * @param explicitFile {@code --token-file} or {@code ConnectOptions.getTokenFile()}, or null
   * @throws AuthenticationException naming every place looked in, when none holds a usable token
   */
  public static ClusterToken find(Path explicitFile) {
    return find(explicitFile, System.getenv());
  }

  static ClusterToken find(Path explicitFile, Map<String, String> env) {
    if (explicitFile != null) {
      return fromFile(explicitFile, "--token-file " + explicitFile);
    }
    String value = env.get(TOKEN_ENV);
    if (value != null && !value.isBlank()) {
      return of(value.strip(), TOKEN_ENV);
    }
    String file = env.get(TOKEN_FILE_ENV);
    if (file != null && !file.isBlank()) {
      return fromFile(Path.of(file), TOKEN_FILE_ENV + "=" + file);
    }
    Path home = homeFile(env);
    if (Files.exists(home, LinkOption.NOFOLLOW_LINKS)) {
      return fromFile(home, home.toString());
    }
    throw new AuthenticationException("no cluster token found: looked in --token-file (not given), " + TOKEN_ENV
        + " (not set), " + TOKEN_FILE_ENV + " (not set) and " + home + " (no such file). The master creates "
        + home + " when it first starts; on another host, copy that file there (mode 600) or set " + TOKEN_ENV);
  }

  /**
   * What the master uses: the token found as {@link #find} does, or a new one (256 random bits)
   * written to {@code $PARL_HOME/token} when there is none anywhere: the file is 0600 from its first
   * byte, in a {@code PARL_HOME} created 0700 ({@link PrivatePaths}).
   *
   * @param say told one sentence when a new token file is created
   */
  public static ClusterToken findOrCreate(Path explicitFile, Consumer<String> say) {
    return findOrCreate(explicitFile, System.getenv(), say);
  }

  static ClusterToken findOrCreate(Path explicitFile, Map<String, String> env, Consumer<String> say) {
    boolean nothingGiven = explicitFile == null && blank(env.get(TOKEN_ENV)) && blank(env.get(TOKEN_FILE_ENV));
    Path home = homeFile(env);
    if (nothingGiven && !Files.exists(home, LinkOption.NOFOLLOW_LINKS)) {
      String value = HexFormat.of().formatHex(nonce(32));
      try {
        PrivatePaths.createDirectories(home.getParent());
        PrivatePaths.writeNew(home, (value + "\n").getBytes(StandardCharsets.UTF_8));
      } catch (java.nio.file.FileAlreadyExistsException e) {
        return find(explicitFile, env); // another master made it at the same moment: use theirs
      } catch (IOException e) {
        throw new AuthenticationException("cannot create the cluster token " + home + ": " + e.getMessage(), e);
      }
      say.accept("created the cluster token " + home + " (mode 600): copy this file to every host that joins "
          + "the cluster (or set " + TOKEN_ENV + " there)");
      return of(value, home.toString());
    }
    return find(explicitFile, env);
  }

  /** The default token file, {@code $PARL_HOME/token}. */
  public static Path homeFile() {
    return homeFile(System.getenv());
  }

  static Path homeFile(Map<String, String> env) {
    String home = env.get(HOME_ENV);
    Path root = !blank(home) ? Path.of(home) : Path.of(System.getProperty("user.home"), ".parl");
    return root.resolve("token");
  }

  private static ClusterToken fromFile(Path file, String source) {
    if (!Files.isRegularFile(file)) {
      throw new AuthenticationException("the cluster token file " + file + " (from " + source + ") "
          + (Files.exists(file) ? "is not a regular file" : "does not exist")
          + ": copy the master's token file there, or set " + TOKEN_ENV);
    }
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
      for (PosixFilePermission p : perms) {
        if (p.name().startsWith("GROUP") || p.name().startsWith("OTHERS")) {
          throw new AuthenticationException("the cluster token file " + file + " can be read or changed by other "
              + "users (" + PosixFilePermissions.toString(perms) + "); run: chmod 600 " + file);
        }
      }
      if (Files.size(file) > MAX_LENGTH) {
        throw new AuthenticationException("the cluster token file " + file + " is larger than " + MAX_LENGTH
            + " bytes: it is not a token file");
      }
      return of(Files.readString(file, StandardCharsets.UTF_8).strip(), source);
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system: permissions cannot be checked there
      return ofUnchecked(file, source);
    } catch (IOException e) {
      throw new AuthenticationException("cannot read the cluster token file " + file + ": " + e.getMessage(), e);
    }
  }

  private static ClusterToken ofUnchecked(Path file, String source) {
    try {
      return of(Files.readString(file, StandardCharsets.UTF_8).strip(), source);
    } catch (IOException e) {
      throw new AuthenticationException("cannot read the cluster token file " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * A token given as a value (tests, {@code PARL_TOKEN}). It must encode at least 256 bits: either
   * 64 or more hex digits ({@code 0-9a-fA-F}, 4 bits each), or 43 or more base64 / base64url
   * characters ({@code A-Za-z0-9+/} or {@code A-Za-z0-9-_}, 6 bits each, trailing {@code =}
   * padding not counted). A value made only of hex digits counts as hex. Anything else (shorter,
   * spaces, other characters, over 4096 characters) is refused with a message that says how to
   * make a new token.
   */
  public static ClusterToken of(String value, String source) {
    String why = weakness(value);
    if (why != null) {
      throw new AuthenticationException("the cluster token from " + source + " is refused: " + why
          + "; a token must hold at least " + MIN_BITS + " bits, as " + MIN_HEX_DIGITS + "+ hex digits or "
          + MIN_BASE64_CHARS + "+ base64url characters; " + HOW_TO_MAKE);
    }
    return new ClusterToken(value, source);
  }

  /** Why {@code value} is not a usable token, or null when it is. */
  static String weakness(String value) {
    if (value.length() > MAX_LENGTH) {
      return "it is longer than " + MAX_LENGTH + " characters";
    }
    if (value.chars().anyMatch(Character::isWhitespace)) {
      return "it contains spaces";
    }
    if (value.chars().allMatch(ClusterToken::isHexDigit)) {
      return value.length() >= MIN_HEX_DIGITS ? null
          : "it has " + value.length() + " hex digits (" + 4 * value.length() + " bits)";
    }
    String body = value.replaceFirst("=+$", "");
    if (!body.chars().allMatch(ClusterToken::isBase64Char)) {
      return "it has characters that are neither hex digits nor base64url";
    }
    return body.length() >= MIN_BASE64_CHARS ? null
        : "it has " + body.length() + " base64url characters (" + 6 * body.length() + " bits)";
  }

  private static boolean isHexDigit(int c) {
    return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
  }

  private static boolean isBase64Char(int c) {
    return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_' || c == '+'
        || c == '/';
  }

  /** A secret derived from the token for one purpose ({@code label}): HMAC-SHA256(token, label). */
  public byte[] derive(String label) {
    return hmac(secret, label.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Proof that the sender holds the token: HMAC-SHA256 over a purpose label and the given parts
   * (each length-prefixed, so that no two different part lists give the same input).
   */
  public byte[] proof(String label, byte[]... parts) {
    List<byte[]> all = new ArrayList<>();
    all.add(label.getBytes(StandardCharsets.UTF_8));
    all.addAll(List.of(parts));
    return hmac(secret, concat(all));
  }

  /** Checks a peer's {@link #proof} in constant time. */
  public boolean verify(byte[] claimed, String label, byte[]... parts) {
    return claimed != null && MessageDigest.isEqual(claimed, proof(label, parts));
  }

  /**
   * Whether {@code presented} is the token itself, for a peer that sends it inside TLS (the
   * monitor's {@code Authorization: Bearer}, its token page). Compared in constant time: the
   * time taken depends only on the length of what was presented, never on the secret.
   */
  public boolean matches(String presented) {
    return presented != null && presented.length() <= MAX_LENGTH
        && MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8), secret);
  }

  /** {@code n} fresh random bytes, for nonces. */
  public static byte[] nonce(int n) {
    byte[] b = new byte[n];
    RANDOM.nextBytes(b);
    return b;
  }

  static byte[] hmac(byte[] key, byte[] data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this Java runtime", e);
    }
  }

  private static byte[] concat(List<byte[]> parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += 4 + p.length;
    }
    ByteBuffer b = ByteBuffer.allocate(n);
    for (byte[] p : parts) {
      b.putInt(p.length).put(p);
    }
    return b.array();
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }

  @Override
  public String toString() {
    return "cluster token from " + source;
  }
}
