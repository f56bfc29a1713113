package org.parl.internal.client;

import io.netty.util.concurrent.GlobalEventExecutor;
import java.lang.reflect.Field;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Makes the thread of Netty's {@link GlobalEventExecutor} a daemon, so that a program exits right
 * after its last line. Closing a Vert.x instance notifies the end of its event-loop groups through
 * that executor (a Netty group's termination future runs its listeners there); its thread is not a
 * daemon and stays one second idle before it ends (Netty's quiet period, at least 1 s), so a
 * {@code main} that closed its client and returned kept the JVM alive for about a second (measured:
 * 0.96 s from the client closed to the process gone). Work handed to that executor while the JVM
 * runs is done as before; only a JVM that has nothing else left to run no longer waits for it.
 *
 * <p>Best effort: where Netty's field cannot be reached (a module path that does not open it, a
 * Netty without it), nothing changes but the exit delay.
 */
final class DaemonGlobalExecutor {

  private static final AtomicBoolean DONE = new AtomicBoolean();

  private DaemonGlobalExecutor() {}

  static void apply() {
    if (!DONE.compareAndSet(false, true)) {
      return;
    }
    try {
      Field f = GlobalEventExecutor.class.getDeclaredField("threadFactory");
      f.setAccessible(true);
      ThreadFactory netty = (ThreadFactory) f.get(GlobalEventExecutor.INSTANCE);
      // Netty's own factory, so that its threads still know their executor; only the daemon flag differs
      f.set(GlobalEventExecutor.INSTANCE, (ThreadFactory) r -> {
        Thread t = netty.newThread(r);
        t.setDaemon(true);
        return t;
      });
    } catch (ReflectiveOperationException | RuntimeException e) {
      // nothing lost but the exit delay
    }
  }
}
