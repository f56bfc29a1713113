package org.parl.it.actors;

/** Prints lines of text to the job's log. */
public class PrinterImpl implements Printer {

  @Override
  public long print(int kib) {
    String line = "x".repeat(1023);
    for (int i = 0; i < kib; i++) {
      System.out.println(line);
    }
    System.out.flush();
    return kib * 1024L;
  }
}
