package org.parl.job;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TimeZone;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Decides whether a job process whose actor was closed may host the next actor: it may only when
 * the actor left nothing behind. A snapshot of the process is taken before its first actor
 * ({@link #baseline}); after a close, {@link #check} compares the process with it:
 *
 * <ol>
 *   <li>the actor's class loader is released: a weak reference to it is cleared after
 *       {@link System#gc()} within {@value #RELEASE_WAIT_MS} ms (nothing, not a static of the
 *       JDK, a thread, a shutdown hook or a thread-local, still reaches the actor's classes);</li>
 *   <li>no thread is alive that was not alive before the first actor, other than the job runtime's
 *       own ({@link RuntimeThreads}): a thread the actor started, even one running only JDK code
 *       (an executor, a timer, a common-pool worker), makes the process dirty;</li>
 *   <li>no native library (no {@code .so} mapped in {@code /proc/self/maps}) was added: a library
 *       can hold native state (a CUDA context, device memory) nothing here can check, so a GPU
 *       actor that used its GPU through any native library is never reused; without
 *       {@code /proc} nothing is proven and the process is dirty;</li>
 *   <li>no child process of the job is alive;</li>
 *   <li>the heap in use after the collection is back near its idle level (at most the
 *       baseline's plus the larger of {@value #HEAP_SLACK_MB} MB and the baseline itself);</li>
 *   <li>the JDK's process-wide settings are as they were: system properties, the default locale
 *       and time zone, {@code System.in}, and {@code System.out}/{@code err} (the job's own log
 *       streams);</li>
 *   <li>the working directory is emptied (a file that cannot be removed makes it dirty).</li>
 * </ol>
 *
 * A kill, a crash or a memory limit ends the process anyway, and a client that went away without
 * closing its actor ends it too ({@link JobMain}): only a close is ever checked.
 */
final class ReuseCheck {

  static final long RELEASE_WAIT_MS = 1_000;
  static final long THREAD_WAIT_MS = 200;
  static final long HEAP_SLACK_MB = 16;

  private final Set<Thread> threads;
  private final Set<String> libraries;
  private final long heapUsed;
  private final Map<Object, Object> properties;
  private final Locale locale;
  private final TimeZone timeZone;
  private final InputStream in;
  private final PrintStream out;
  private final PrintStream err;

  private ReuseCheck(Set<Thread> threads, Set<String> libraries, long heapUsed) {
    this.threads = threads;
    this.libraries = libraries;
    this.heapUsed = heapUsed;
    this.properties = new HashMap<>(System.getProperties());
    this.locale = Locale.getDefault();
    this.timeZone = TimeZone.getDefault();
    this.in = System.in;
    this.out = System.out;
    this.err = System.err;
  }

  /** The process as it is now, before any actor ran in it; collects garbage first. */
  static ReuseCheck baseline() {
    System.gc();
    return new ReuseCheck(Set.copyOf(Thread.getAllStackTraces().keySet()), libraries(), heapUsed());
  }

  /**
   * Runs every check after the actor's end and empties the working directory; blocks for at most
   * about a second and a half.
   *
   * @param loader the closed actor's class loader (absent when no actor was created)
   * @param log the stream {@code System.out} and {@code System.err} should be (the current
   *     actor's log), or null when they should be as they were before the first actor
   * @return null when the process is clean, or why it is not
   */
  String check(WeakReference<ClassLoader> loader, PrintStream log, Path workDir) {
    String why = released(loader);
    if (why == null) {
      why = threadsLeft();
    }
    if (why == null) {
      why = nativeLibraries();
    }
    if (why == null && ProcessHandle.current().children().anyMatch(ProcessHandle::isAlive)) {
      why = "the actor left a child process running";
    }
    if (why == null) {
      long used = heapUsed();
      if (used > heapUsed + Math.max(HEAP_SLACK_MB << 20, heapUsed)) {
        why = "its heap holds " + (used >> 20) + " MB after a collection (idle: " + (heapUsed >> 20) + " MB)";
      }
    }
    if (why == null) {
      why = globals(log);
    }
    if (why == null) {
      why = emptied(workDir);
    }
    return why;
  }

  private static String released(WeakReference<ClassLoader> loader) {
    long deadline = System.currentTimeMillis() + RELEASE_WAIT_MS;
    System.gc();
    while (loader.get() != null) {
      if (System.currentTimeMillis() > deadline) {
        return "the actor's class loader is still reachable after a collection (a thread, a static or a hook holds it)";
      }
      pause(10);
      System.gc();
    }
    return null;
  }

  private String threadsLeft() {
    long deadline = System.currentTimeMillis() + THREAD_WAIT_MS;
    while (true) {
      List<String> left = new ArrayList<>();
      for (Thread t : Thread.getAllStackTraces().keySet()) {
        if (t.isAlive() && t != Thread.currentThread() && !threads.contains(t) && !RuntimeThreads.owns(t)) {
          left.add("'" + t.getName() + "'" + (t.isDaemon() ? " (daemon)" : ""));
        }
      }
      if (left.isEmpty()) {
        return null;
      }
      if (System.currentTimeMillis() > deadline) {
        return "the actor left thread(s) running: " + String.join(", ", left);
      }
      pause(10);
    }
  }

  private String nativeLibraries() {
    Set<String> now = libraries();
    if (now == null || libraries == null) {
      return "cannot read /proc/self/maps to prove that no native library was loaded";
    }
    now.removeAll(libraries);
    return now.isEmpty() ? null : "native libraries were loaded: " + now;
  }

  private String globals(PrintStream log) {
    if (System.out != (log == null ? out : log) || System.err != (log == null ? err : log) || System.in != in) {
      return "the actor replaced System.in, System.out or System.err";
    }
    if (!properties.equals(new HashMap<>(System.getProperties()))) {
      return "the actor changed system properties";
    }
    if (!Locale.getDefault().equals(locale) || !TimeZone.getDefault().equals(timeZone)) {
      return "the actor changed the default locale or time zone";
    }
    return null;
  }

  /** Removes everything under the working directory, which stays; why not, or null. */
  static String emptied(Path workDir) {
    try (Stream<Path> all = Files.walk(workDir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        if (!p.equals(workDir)) {
          Files.delete(p);
        }
      }
      try (Stream<Path> left = Files.list(workDir)) {
        return left.findAny().isEmpty() ? null : "its working directory could not be emptied";
      }
    } catch (IOException | RuntimeException e) {
      return "its working directory could not be emptied: " + e;
    }
  }

  /** The shared objects mapped into this process, or null without /proc. */
  static Set<String> libraries() {
    try (Stream<String> lines = Files.lines(Path.of("/proc/self/maps"))) {
      Set<String> libs = new TreeSet<>();
      lines.forEach(line -> {
        int slash = line.indexOf('/');
        if (slash >= 0) {
          String file = line.substring(slash);
          if (file.endsWith(".so") || file.contains(".so.") || file.contains(".so ")) {
            libs.add(file);
          }
        }
      });
      return libs;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static long heapUsed() {
    Runtime r = Runtime.getRuntime();
    return r.totalMemory() - r.freeMemory();
  }

  private static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
