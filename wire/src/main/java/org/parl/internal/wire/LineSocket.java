package org.parl.internal.wire;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.cert.Certificate;
import java.util.Arrays;
import javax.net.ssl.SSLSocket;
import org.parl.internal.net.HostPort;

/**
 * A blocking connection to a master's gateway: lines of JSON ({@link JsonLines}) over TLS 1.3
 * ({@link ProofBoundTls}, the gateway's certificate checked afterwards by its proof). The one transport
 * of every gateway client: a program's connection (which reads and writes it on threads of its own) and
 * the one-question hellos of workers, monitors and commands. Reads and writes each from one thread at a
 * time.
 */
public final class LineSocket implements Closeable {

  /** Bytes read from the socket at a time. */
  private static final int CHUNK = 16 * 1024;

  private final Socket plain;
  private final SSLSocket tls;
  private final InputStream in;
  private final OutputStream out;
  private final byte[] chunk = new byte[CHUNK];
  private int chunkStart;
  private int chunkEnd;
  private byte[] line = new byte[CHUNK];

  private LineSocket(Socket plain, SSLSocket tls) throws IOException {
    this.plain = plain;
    this.tls = tls;
    this.in = tls.getInputStream();
    this.out = tls.getOutputStream();
  }

  /**
   * Connects within {@code connectTimeoutMs} and runs the TLS handshake within {@code handshakeTimeoutMs};
   * reads then wait without a deadline ({@link #readTimeout}).
   *
   * @throws IOException when nothing answers, or not with TLS 1.3
   */
  public static LineSocket open(HostPort master, int connectTimeoutMs, int handshakeTimeoutMs) throws IOException {
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.connect(new InetSocketAddress(master.host(), master.port()), connectTimeoutMs);
      return new LineSocket(s, ProofBoundTls.wrap(s, master.host(), master.port(), handshakeTimeoutMs));
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /** The certificate the master presented, which its proof must be bound to. */
  public Certificate peerCertificate() throws IOException {
    return ProofBoundTls.peerCertificate(tls);
  }

  /** How long a read waits for the peer before it throws {@link java.net.SocketTimeoutException}; 0 for ever. */
  public void readTimeout(int ms) throws IOException {
    tls.setSoTimeout(ms);
  }

  /**
   * Sends one line of encoded JSON (which holds no raw newline) in one write: a peer that answers
   * anything and closes must not break it halfway.
   */
  public void writeLine(byte[] json) throws IOException {
    byte[] bytes = Arrays.copyOf(json, json.length + 1);
    bytes[json.length] = '\n';
    out.write(bytes);
    out.flush();
  }

  /**
   * The next line, without its newline (empty for an empty line), or null once the stream ended (a last
   * line without its newline is dropped).
   *
   * @throws LineTooLong when the line is longer than {@link JsonLines#MAX_LINE}: an attack or a bug, after
   *     which nothing more should be read
   */
  public byte[] readLine() throws IOException {
    int length = 0;
    while (true) {
      if (chunkStart == chunkEnd) {
        int n = in.read(chunk);
        if (n <= 0) {
          return null;
        }
        chunkStart = 0;
        chunkEnd = n;
      }
      int end = chunkStart;
      while (end < chunkEnd && chunk[end] != '\n') {
        end++;
      }
      int taken = end - chunkStart;
      if (length + taken > JsonLines.MAX_LINE) {
        throw new LineTooLong();
      }
      if (line.length < length + taken) {
        line = Arrays.copyOf(line, Math.min(Math.max(length + taken, line.length * 2), JsonLines.MAX_LINE));
      }
      System.arraycopy(chunk, chunkStart, line, length, taken);
      length += taken;
      if (end < chunkEnd) { // a whole line
        chunkStart = end + 1;
        return Arrays.copyOf(line, length);
      }
      chunkStart = chunkEnd;
    }
  }

  /** Closes the TCP connection without TLS's closing alert, whose JDK implementation may wait on the peer. */
  @Override
  public void close() throws IOException {
    plain.close();
  }

  /** A line longer than {@link JsonLines#MAX_LINE}: the peer is not a parl gateway, or not a sane one. */
  public static final class LineTooLong extends IOException {

    LineTooLong() {
      super("a line longer than " + JsonLines.MAX_LINE + " bytes");
    }
  }
}
