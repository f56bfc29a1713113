package org.parl.it.actors;

/** A test actor that writes to its standard output, which goes to its job's log. */
public interface Printer {

  /** Prints {@code kib} KiB of text lines; returns how many bytes. */
  long print(int kib);
}
