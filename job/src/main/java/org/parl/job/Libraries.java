package org.parl.job;

import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * The jars of the installation that are not the job's own (Hazelcast, the web server, Bouncy
 * Castle, the nodes, the command line, logging): an actor finds in them what neither the job's
 * class path nor its own code has, through one class loader made when an actor first needs it, so
 * that an idle job never opens them. The JVM keeps the central directory of every jar it opened on
 * its heap, and a job's first HMAC (the JDK's {@code JceSecurity} makes an {@code http} URL, whose
 * handler lookup reads the services of every jar of the system class path) opened all of them:
 * megabytes of an idle job's heap, and time again at an actor's first lookup. The
 * loader is kept for the next actors of a reused process.
 */
final class Libraries {

  private final List<URL> jars;
  private Loader loader;

  /** The libraries' loader; its own jars only, the job's loader being every actor's parent already. */
  private static final class Loader extends URLClassLoader {
    Loader(URL[] jars) {
      super("parl-libraries", jars, Libraries.class.getClassLoader());
    }

    Enumeration<URL> ownResources(String name) throws IOException {
      return findResources(name);
    }
  }

  private Libraries(List<URL> jars) {
    this.jars = jars;
  }

  /** None: the job's class path holds everything (a job run from class folders). */
  static Libraries none() {
    return new Libraries(List.of());
  }

  /** @param pathList the jars, separated by {@link File#pathSeparator}, as the worker passes them */
  static Libraries of(String pathList) {
    List<URL> urls = new ArrayList<>();
    for (String entry : pathList.split(File.pathSeparator)) {
      if (!entry.isBlank()) {
        try {
          urls.add(Path.of(entry).toUri().toURL());
        } catch (MalformedURLException | IllegalArgumentException e) {
          throw new IllegalArgumentException("bad library path " + entry + ": " + e.getMessage(), e);
        }
      }
    }
    return new Libraries(List.copyOf(urls));
  }

  private synchronized Loader loader() {
    if (loader == null && !jars.isEmpty()) {
      loader = new Loader(jars.toArray(URL[]::new));
    }
    return loader;
  }

  /** Whether the libraries' loader was made (an actor looked for something only they could have). */
  synchronized boolean opened() {
    return loader != null;
  }

  /** A class of the libraries (the job's own classes are found first by the caller's parent). */
  Class<?> loadClass(String name) throws ClassNotFoundException {
    Loader l = loader();
    if (l == null) {
      throw new ClassNotFoundException(name);
    }
    return l.loadClass(name);
  }

  URL findResource(String name) {
    Loader l = loader();
    return l == null ? null : l.findResource(name);
  }

  Enumeration<URL> findResources(String name) throws IOException {
    Loader l = loader();
    return l == null ? Collections.emptyEnumeration() : l.ownResources(name);
  }
}
