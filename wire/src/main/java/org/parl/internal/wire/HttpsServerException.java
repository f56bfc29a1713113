package org.parl.internal.wire;

import java.io.IOException;

/** The peer of a parl connection chose HTTP in the TLS handshake: it is a web server (a monitor, say), not a parl server. */
public final class HttpsServerException extends IOException {

  private final String address;

  HttpsServerException(String address, String protocol) {
    super(address + " is an HTTPS server (it chose " + protocol + "), not a parl master's gateway");
    this.address = address;
  }

  /** The address the connection was made to, {@code HOST:PORT}. */
  public String address() {
    return address;
  }
}
