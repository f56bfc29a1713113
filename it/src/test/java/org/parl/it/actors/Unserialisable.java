package org.parl.it.actors;

/** A value Jackson cannot serialise: its only property throws when read. */
public class Unserialisable {

  public String getValue() {
    throw new IllegalStateException("this value cannot be read");
  }
}
