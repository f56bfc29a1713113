package org.parl.internal.wire;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Class-path entries as content: the entries of a JVM's class path (following manifest
 * {@code Class-Path} attributes, as launcher jars use them), the SHA-256 of jars, and class
 * folders packed as jars in a reproducible way so that unchanged code keeps its hash. Blocking.
 */
public final class ClassPaths {

  private static final Map<String, String> HASHES = new ConcurrentHashMap<>();
  private static final long FIXED_TIME = 1_000_000_000_000L;
  /** A class folder bigger than this is not code: refuse to pack it into memory. */
  public static final long MAX_FOLDER_BYTES = 256L << 20;

  /** A class folder too large to ship. */
  public static final class TooLargeException extends IOException {
    TooLargeException(String message) {
      super(message);
    }
  }

  private ClassPaths() {}

  /** This JVM's class path, launcher manifests expanded, in order, existing entries only. */
  public static List<Path> current() {
    LinkedHashSet<Path> out = new LinkedHashSet<>();
    for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
      if (!e.isBlank()) {
        expand(Path.of(e).toAbsolutePath().normalize(), out);
      }
    }
    return new ArrayList<>(out);
  }

  private static void expand(Path entry, LinkedHashSet<Path> out) {
    if (!Files.exists(entry) || !out.add(entry) || Files.isDirectory(entry)) {
      return;
    }
    try (JarFile jar = new JarFile(entry.toFile())) {
      Manifest m = jar.getManifest();
      String cp = m == null ? null : m.getMainAttributes().getValue("Class-Path");
      if (cp == null) {
        return;
      }
      for (String item : cp.trim().split("\\s+")) {
        try {
          URI uri = entry.getParent().toUri().resolve(item);
          if ("file".equals(uri.getScheme())) {
            expand(Path.of(uri).toAbsolutePath().normalize(), out);
          }
        } catch (IllegalArgumentException e) {
          // an entry we cannot resolve cannot be shipped either
        }
      }
    } catch (IOException e) {
      // not a jar: nothing to expand
    }
  }

  /** SHA-256 of a file, cached by path, size and modification time. */
  public static String hash(Path file) throws IOException {
    String key = file + "|" + Files.size(file) + "@" + Files.getLastModifiedTime(file).toMillis();
    String h = HASHES.get(key);
    if (h == null) {
      h = Hashes.sha256(Files.readAllBytes(file));
      HASHES.put(key, h);
    }
    return h;
  }

  /** Packs a class folder into jar bytes with sorted entries and fixed times (same input, same bytes). */
  public static byte[] packFolder(Path dir) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    List<Path> files;
    try (Stream<Path> s = Files.walk(dir)) {
      files = s.filter(Files::isRegularFile).sorted(Comparator.comparing(p -> dir.relativize(p).toString())).toList();
    }
    long total = 0;
    for (Path f : files) {
      total += Files.size(f);
      if (total > MAX_FOLDER_BYTES) {
        throw new TooLargeException("the class-path folder " + dir + " holds more than " + (MAX_FOLDER_BYTES >> 20) + " MiB");
      }
    }
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (Path f : files) {
        ZipEntry e = new ZipEntry(dir.relativize(f).toString().replace(File.separatorChar, '/'));
        e.setTime(FIXED_TIME);
        zip.putNextEntry(e);
        try (InputStream in = Files.newInputStream(f)) {
          in.transferTo(zip);
        }
        zip.closeEntry();
      }
    }
    return bytes.toByteArray();
  }
}
