package org.parl.job;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.parl.internal.security.SharedSecret;

/**
 * What a worker hands its job process on standard input, so that it appears neither on the
 * command line nor in the environment (which the actor's code and its child processes could read):
 * the secret of the control link, and with {@code --encrypt-data} the data port's TLS identity.
 *
 * <pre>
 *   line 1: the control secret in hex
 *   line 2: "plain", or "tls " base64(PKCS#8 private key) " " base64(X.509 certificate)
 * </pre>
 *
 * @param tls the data port's identity, or null for a port without TLS
 */
record LaunchSecrets(SharedSecret control, TlsIdentity tls) {

  private static final int MAX_LINE = 16 * 1024;

  /** Reads both lines; the worker writes them as it starts the process, then closes the pipe. */
  static LaunchSecrets read(InputStream in) throws IOException {
    String secret = line(in);
    String data = line(in);
    SharedSecret control;
    try {
      control = SharedSecret.ofHex(secret);
    } catch (IllegalArgumentException e) {
      throw new IOException("the worker handed over no usable control secret: " + e.getMessage());
    }
    return new LaunchSecrets(control, dataPort(data));
  }

  /** The data port's setting: null for {@code plain}, or the identity of a {@code tls KEY CERT} line. */
  static TlsIdentity dataPort(String line) throws IOException {
    if (line.equals("plain")) {
      return null;
    }
    String[] parts = line.split(" ");
    if (parts.length != 3 || !parts[0].equals("tls")) {
      throw new IOException("the worker handed over no usable data-port setting");
    }
    return TlsIdentity.decode(parts[1], parts[2]);
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int c;
    while ((c = in.read()) != '\n') {
      if (c < 0) {
        throw new IOException("standard input ended before the worker's secrets: start job processes through a worker");
      }
      if (b.size() >= MAX_LINE) {
        throw new IOException("a line of the worker's secrets is longer than " + MAX_LINE + " bytes");
      }
      b.write(c);
    }
    return b.toString(StandardCharsets.US_ASCII);
  }
}
