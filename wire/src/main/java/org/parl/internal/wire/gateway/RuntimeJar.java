package org.parl.internal.wire.gateway;

import org.parl.internal.wire.Checks;

/** A jar every job process has on its class path: clients need not ship it. */
public record RuntimeJar(String name, long size, String hash) {

  public RuntimeJar {
    Checks.name("name", name);
    Checks.range("size", size, 0, Long.MAX_VALUE);
    Checks.name("hash", hash);
  }
}
