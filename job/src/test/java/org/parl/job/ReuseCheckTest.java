package org.parl.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReuseCheckTest {

  @TempDir
  Path work;

  /** A loader nothing else holds, as an actor's is once its process dropped it. */
  private static WeakReference<ClassLoader> droppedLoader() {
    return new WeakReference<>(new URLClassLoader("actor", new URL[0], ReuseCheckTest.class.getClassLoader()));
  }

  @Test
  void aProcessLeftAsItWasIsCleanAndItsWorkingDirectoryEmptied() throws Exception {
    ReuseCheck baseline = ReuseCheck.baseline();
    Files.writeString(work.resolve("left.txt"), "x");
    Files.createDirectories(work.resolve("sub/dir"));
    Files.writeString(work.resolve("sub/dir/deep.txt"), "y");
    assertNull(baseline.check(droppedLoader(), null, work));
    assertTrue(Files.isDirectory(work), "the working directory stays");
    try (var left = Files.list(work)) {
      assertEquals(0, left.count(), "and is empty");
    }
  }

  @Test
  void aLoaderStillHeldIsDirty() {
    ReuseCheck baseline = ReuseCheck.baseline();
    ClassLoader held = new URLClassLoader("actor", new URL[0], ReuseCheckTest.class.getClassLoader());
    String why = baseline.check(new WeakReference<>(held), null, work);
    assertNotNull(why);
    assertTrue(why.contains("class loader"), why);
    assertNotNull(held);
  }

  @Test
  void aThreadLeftRunningIsDirtyButTheRuntimesOwnAreNot() throws Exception {
    ReuseCheck baseline = ReuseCheck.baseline();
    CountDownLatch release = new CountDownLatch(1);
    Runnable waits = () -> {
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    Thread own = RuntimeThreads.create(waits, "parl-data-test", false);
    own.start();
    try {
      assertNull(baseline.check(droppedLoader(), null, work), "a thread of the runtime is no leak");
      Thread left = new Thread(waits, "left-behind");
      left.setDaemon(true);
      left.start();
      try {
        String why = baseline.check(droppedLoader(), null, work);
        assertNotNull(why);
        assertTrue(why.contains("'left-behind' (daemon)"), why);
      } finally {
        release.countDown();
        left.join(5_000);
      }
    } finally {
      release.countDown();
      own.join(5_000);
    }
  }

  @Test
  void changedSystemPropertiesAreDirty() {
    ReuseCheck baseline = ReuseCheck.baseline();
    System.setProperty("parl.reuse.test", "changed");
    try {
      String why = baseline.check(droppedLoader(), null, work);
      assertNotNull(why);
      assertTrue(why.contains("system properties"), why);
    } finally {
      System.clearProperty("parl.reuse.test");
    }
    assertNull(baseline.check(droppedLoader(), null, work), "clean again once restored");
  }

  @Test
  void nativeLibrariesAreReadFromProc() {
    assertTrue(ReuseCheck.libraries().stream().anyMatch(l -> l.contains("libjvm.so")), "libjvm.so is mapped");
  }
}
