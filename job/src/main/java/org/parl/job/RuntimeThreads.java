package org.parl.job;

import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * The threads the job runtime itself starts (control reader, data-port handshakes and deadlines):
 * {@link ReuseCheck} tells them apart from threads an actor left behind. Held weakly.
 */
final class RuntimeThreads {

  private static final Set<Thread> OWN = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

  private RuntimeThreads() {}

  /** A new, not yet started thread of the runtime. */
  static Thread create(Runnable task, String name, boolean daemon) {
    Thread t = new Thread(task, name);
    t.setDaemon(daemon);
    OWN.add(t);
    return t;
  }

  static boolean owns(Thread t) {
    return OWN.contains(t);
  }
}
