package org.parl.internal.client;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.parl.InvalidRequestException;
import org.parl.Parl;
import org.parl.internal.wire.ClassPaths;
import org.parl.internal.wire.gateway.RuntimeJar;

/**
 * What a job needs that the cluster does not have: the client's class-path entries (its own
 * classes and their libraries, minus parl's runtime, which every job has) and the distributed
 * files. Computed once per client, off the event loop.
 */
final class CodeBundle {

  private static final int MAX_GLOB_DEPTH = 32;

  final List<Blob> code;
  final List<Blob> files;
  /** Class-path entries every job has already (parl's own, and jars the cluster has under the same name and size). */
  private final Set<Path> provided;

  private CodeBundle(List<Blob> code, List<Blob> files, Set<Path> provided) {
    this.code = code;
    this.files = files;
    this.provided = provided;
  }

  /**
   * @param provided the jars every job already has, from the master's welcome
   * @param patterns the distributed-file globs, relative to the working directory
   */
  static CodeBundle build(List<RuntimeJar> provided, List<String> patterns) throws IOException {
    Path parl = location(Parl.class);
    Set<String> names = new HashSet<>();
    Set<String> hashes = new HashSet<>();
    for (RuntimeJar jar : provided) {
      names.add(jar.name() + "|" + jar.size());
      hashes.add(jar.hash());
    }
    List<Blob> code = new ArrayList<>();
    Set<Path> known = new HashSet<>();
    if (parl != null) {
      known.add(parl);
    }
    for (Path entry : ClassPaths.current()) {
      // a jar the cluster has under the same name and size is not even hashed (Hazelcast is 16 MiB)
      if (entry.equals(parl) || (Files.isRegularFile(entry)
          && names.contains(entry.getFileName() + "|" + Files.size(entry)))) {
        known.add(entry.toAbsolutePath().normalize());
        continue;
      }
      Blob b = blob(entry, entry.getFileName().toString());
      if (!hashes.contains(b.hash())) {
        code.add(b);
      }
    }
    return new CodeBundle(code, distributedFiles(patterns), Set.copyOf(known));
  }

  private static Blob blob(Path entry, String name) throws IOException {
    try {
      return Blob.of(entry, name);
    } catch (ClassPaths.TooLargeException e) {
      throw new InvalidRequestException(e.getMessage() + ": keep data out of the class path and ship it with "
          + "ConnectOptions.distributedFiles");
    }
  }

  /** Whether the class's code is in the bundle already, or needs no shipping; answered without reading files. */
  boolean covers(Class<?> c) {
    Path where = location(c);
    return where == null || provided.contains(where) || code.stream().anyMatch(b -> b.source().equals(where));
  }

  /** Adds the code source of a class loaded from outside the class path (an IDE, a plugin loader). */
  CodeBundle including(Class<?> c) throws IOException {
    if (covers(c)) {
      return this;
    }
    Path where = location(c);
    List<Blob> more = new ArrayList<>(code);
    more.add(blob(where, where.getFileName().toString()));
    return new CodeBundle(more, files, provided);
  }

  private static Path location(Class<?> c) {
    CodeSource cs = c.getProtectionDomain().getCodeSource();
    if (cs == null || cs.getLocation() == null) {
      return null;
    }
    try {
      return Path.of(cs.getLocation().toURI()).toAbsolutePath().normalize();
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null;
    }
  }

  private static List<Blob> distributedFiles(List<String> patterns) throws IOException {
    Path cwd = Path.of("").toAbsolutePath();
    Set<Path> found = new LinkedHashSet<>();
    for (String pattern : patterns) {
      String glob = pattern.startsWith("./") ? pattern.substring(2) : pattern;
      if (Path.of(glob).isAbsolute() || Path.of(glob).normalize().startsWith("..")) {
        throw new InvalidRequestException("distributedFiles pattern '" + pattern
            + "' must stay inside the working directory " + cwd);
      }
      PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + glob);
      Path base = cwd.resolve(staticPrefix(glob));
      List<Path> matches = new ArrayList<>();
      if (Files.isRegularFile(base) && matcher.matches(cwd.relativize(base))) {
        matches.add(base);
      } else if (Files.isDirectory(base)) {
        try (Stream<Path> s = Files.walk(base, MAX_GLOB_DEPTH)) {
          s.filter(Files::isRegularFile).filter(p -> matcher.matches(cwd.relativize(p))).sorted().forEach(matches::add);
        }
      }
      if (matches.isEmpty()) {
        throw new InvalidRequestException("distributedFiles pattern '" + pattern + "' matches no file in " + cwd);
      }
      found.addAll(matches);
    }
    List<Blob> blobs = new ArrayList<>();
    for (Path p : found) {
      blobs.add(blob(p, cwd.relativize(p).toString()));
    }
    return blobs;
  }

  /** The folder part of a glob before its first wildcard. */
  private static String staticPrefix(String glob) {
    int wild = glob.length();
    for (char c : new char[] {'*', '?', '[', '{'}) {
      int i = glob.indexOf(c);
      if (i >= 0) {
        wild = Math.min(wild, i);
      }
    }
    if (wild == glob.length()) {
      return glob;
    }
    int slash = glob.lastIndexOf('/', wild);
    return slash < 0 ? "" : glob.substring(0, slash);
  }
}
