package org.parl.worker;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Collectors;

/**
 * What a job process loads classes from: its class path, the job jar and the dependencies its
 * manifest names (the job module's own runtime dependencies, as Maven wrote them), and the
 * installation's other jars, which its actors reach through a class loader made on first use
 * ({@code org.parl.job.Libraries}). The JVM keeps the central directory of every class-path jar
 * it opened on its heap, and a job's first HMAC (the JDK looks up URL handlers and security
 * providers through the system class loader) opened all of them: Hazelcast and Bouncy Castle
 * alone hold 2 MB.
 *
 * @param own the job's class path, in order
 * @param libraries the other jars; empty when the job runs from class folders (a build), which
 *     then keeps the worker's whole class path with its own entries first
 */
record JobClassPath(List<Path> own, List<Path> libraries) {

  /**
   * @param worker the worker's class path, launcher manifests expanded
   * @param jobCode where the job's classes come from: its jar in an installation
   * @param first the job's own entries, put first on a class path that keeps everything
   */
  static JobClassPath of(List<Path> worker, Path jobCode, List<Path> first) {
    Optional<List<Path>> named = manifestClassPath(jobCode);
    if (named.isEmpty() || !named.get().stream().allMatch(Files::isRegularFile)) {
      return new JobClassPath(JobLauncher.jobClassPath(worker, first), List.of());
    }
    LinkedHashSet<Path> own = new LinkedHashSet<>();
    own.add(jobCode);
    own.addAll(named.get());
    // a jar whose manifest names others (the launcher jar) goes last: opening it brings all of
    // them in, in its own order, ahead of the rest of the libraries
    List<Path> plain = new ArrayList<>();
    List<Path> launchers = new ArrayList<>();
    for (Path p : worker) {
      if (!own.contains(p)) {
        (manifestClassPath(p).isPresent() ? launchers : plain).add(p);
      }
    }
    plain.addAll(launchers);
    return new JobClassPath(List.copyOf(own), List.copyOf(plain));
  }

  static String join(List<Path> entries) {
    return entries.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
  }

  /** The entries a jar's manifest {@code Class-Path} names, resolved next to it; empty when it names none or is no jar. */
  static Optional<List<Path>> manifestClassPath(Path entry) {
    if (entry == null || !Files.isRegularFile(entry)) {
      return Optional.empty();
    }
    try (JarFile jar = new JarFile(entry.toFile(), false)) {
      Manifest m = jar.getManifest();
      String cp = m == null ? null : m.getMainAttributes().getValue("Class-Path");
      if (cp == null || cp.isBlank()) {
        return Optional.empty();
      }
      List<Path> out = new ArrayList<>();
      for (String item : cp.trim().split("\\s+")) {
        URI uri = entry.toAbsolutePath().getParent().toUri().resolve(item);
        if (!"file".equals(uri.getScheme())) {
          return Optional.empty();
        }
        out.add(Path.of(uri).toAbsolutePath().normalize());
      }
      return Optional.of(out);
    } catch (IOException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
