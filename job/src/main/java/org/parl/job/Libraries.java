package org.parl.job;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The jars of the installation that are not the job's own (Hazelcast, the web server, Bouncy
 * Castle, the nodes, the command line, logging): actors see them as before, through a class loader
 * between the job's and each actor's, but an idle job never opens them. The JVM keeps the central
 * directory of every class-path jar it opened on its heap, and the first HMAC of a job (the JDK's
 * {@code JceSecurity} makes an {@code http} URL, whose handler lookup reads the services of every
 * jar of the system class path) opened all of them: about 2.5 MB of an idle job. The loader is
 * made when the first actor is created and kept for the next actors of a reused process.
 */
final class Libraries {

  private final List<URL> jars;
  private ClassLoader loader;

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

  /** The parent of an actor's class loader: the libraries' loader, made on first use, or the job's own. */
  synchronized ClassLoader parent() {
    if (jars.isEmpty()) {
      return Libraries.class.getClassLoader();
    }
    if (loader == null) {
      loader = new URLClassLoader("parl-libraries", jars.toArray(URL[]::new), Libraries.class.getClassLoader());
    }
    return loader;
  }
}
