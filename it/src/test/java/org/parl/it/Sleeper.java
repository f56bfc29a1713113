package org.parl.it;

/** A plain JVM that waits: what attaching to a JVM that allows it looks like, next to one that refuses. */
public final class Sleeper {

  private Sleeper() {}

  public static void main(String[] args) throws InterruptedException {
    System.out.println("sleeping");
    // waits out its time; the test stops it
    new java.util.concurrent.CountDownLatch(1).await(Long.parseLong(args[0]), java.util.concurrent.TimeUnit.MILLISECONDS);
  }
}
