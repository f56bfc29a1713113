package org.parl.it;

import java.util.concurrent.CountDownLatch;
import org.parl.Parl;
import org.parl.ParlClient;
import org.parl.it.actors.BigArrays;
import org.parl.it.actors.BigArraysImpl;

/**
 * A user program run as its own process, so that a test can SIGKILL it while its actor shares
 * memory with it: creates one actor, echoes an 8 MB array through the shared area, prints
 * {@code READY jobPid}, then waits.
 */
public final class SharedMemoryClient {

  private SharedMemoryClient() {}

  public static void main(String[] args) throws Exception {
    ParlClient parl = Parl.connect(args[0]);
    var actor = parl.actor(BigArrays.class, BigArraysImpl.class).createAsync().await();
    float[] big = new float[2 << 20];
    big[big.length - 1] = 7;
    if (actor.call(a -> a.floats(big)).await()[big.length - 1] != 7) {
      throw new IllegalStateException("the echo came back different");
    }
    System.out.println("READY " + actor.call(BigArrays::pid).await() + " " + actor.call(BigArrays::sharedMappings).await());
    new CountDownLatch(1).await(); // until the test kills this process
  }
}
