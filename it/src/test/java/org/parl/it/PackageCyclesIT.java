package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The layering of parl's built classes (every module's {@code target/classes}, read as class
 * files): no two packages use each other, directly or through others; no module uses a module
 * listed after it in the root POM, which lists them bottom-up, neither in its POM nor in its
 * classes; and the client's class path (the {@code parl} artifact and the parl modules under it)
 * holds no package but {@code org.parl}, the API, and {@code org.parl.internal.*}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PackageCyclesIT {

  private static final String CLIENT_ARTIFACT = "parl";
  private static final String API_PACKAGE = "org.parl";
  private static final String INTERNAL_PREFIX = "org.parl.internal.";

  private ReactorModules modules;
  /** internal class name -> the module whose classes hold it */
  private final Map<String, ReactorModules.Module> owner = new HashMap<>();
  /** internal class name -> the class names it names */
  private final Map<String, Set<String>> references = new HashMap<>();

  @BeforeAll
  void readClasses() throws Exception {
    Path root = Path.of(System.getProperty("parl.root", "..")).toAbsolutePath().normalize();
    modules = ReactorModules.read(root);
    for (ReactorModules.Module m : modules.all()) {
      Path classes = root.resolve(m.dir()).resolve("target/classes");
      if (!Files.isDirectory(root.resolve(m.dir()).resolve("src/main/java"))) {
        continue;
      }
      assertTrue(Files.isDirectory(classes), "module " + m.dir() + " is not built: no " + classes + " (run mvn package first)");
      try (Stream<Path> files = Files.walk(classes)) {
        for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
          String name = classes.relativize(f).toString().replace('\\', '/');
          name = name.substring(0, name.length() - ".class".length());
          owner.put(name, m);
          references.put(name, ClassReferences.of(Files.readAllBytes(f)));
        }
      }
    }
    assertTrue(owner.size() > 100, "read the classes of every module, found only " + owner.size());
  }

  @Test
  void noImportCycleBetweenPackages() {
    PackageGraph graph = new PackageGraph();
    references.forEach((from, names) -> names.stream().filter(owner::containsKey).forEach(to -> graph.add(from, to)));
    List<List<String>> cycles = graph.cycles();
    assertTrue(cycles.isEmpty(), cycles.size() + " package cycle(s); break each one by moving the type that both sides need "
        + "down, or by turning the use around (an interface in the lower package):\n" + format(cycles));
  }

  @Test
  void noModuleUsesAModuleAboveIt() {
    List<String> faults = new ArrayList<>();
    for (ReactorModules.Module m : modules.all()) {
      for (String dep : m.dependsOn()) {
        ReactorModules.Module d = modules.byArtifact(dep);
        if (d != null && d.layer() >= m.layer()) {
          faults.add("the POM of " + m.dir() + " depends on " + dep + " (" + d.dir() + "), which the root POM lists after it");
        }
      }
    }
    Set<String> seen = new TreeSet<>();
    references.forEach((from, names) -> {
      ReactorModules.Module m = owner.get(from);
      Set<ReactorModules.Module> below = modules.closure(m);
      for (String to : names) {
        ReactorModules.Module d = owner.get(to);
        if (d == null || d == m) {
          continue;
        }
        if (d.layer() > m.layer() && seen.add(m.dir() + " " + d.dir())) {
          faults.add(m.dir() + " uses " + d.dir() + ", a module above it (" + from + " -> " + to + ")");
        } else if (!below.contains(d) && seen.add(m.dir() + " " + d.dir() + " undeclared")) {
          faults.add(m.dir() + " uses " + d.dir() + " without depending on it in its POM (" + from + " -> " + to + ")");
        }
      }
    });
    assertTrue(faults.isEmpty(), "the root POM lists modules bottom-up (" + modules.all().stream().map(ReactorModules.Module::dir)
        .toList() + "); a module uses only modules before it:\n  " + String.join("\n  ", faults));
  }

  @Test
  void onlyOrgParlIsPublicOnTheClientClassPath() {
    ReactorModules.Module client = modules.byArtifact(CLIENT_ARTIFACT);
    assertTrue(client != null, "no module with the artifact " + CLIENT_ARTIFACT + " in the root POM");
    Set<ReactorModules.Module> onClassPath = modules.closure(client);
    Set<String> outside = new TreeSet<>();
    owner.forEach((name, m) -> {
      String pkg = PackageGraph.packageOf(name);
      if (onClassPath.contains(m) && !pkg.equals(API_PACKAGE) && !pkg.startsWith(INTERNAL_PREFIX)) {
        outside.add(pkg + " (module " + m.dir() + ")");
      }
    });
    assertTrue(outside.isEmpty(), "packages on the client class path besides " + API_PACKAGE + " must be under "
        + INTERNAL_PREFIX + "*, users see the rest as API: " + outside);
  }

  /** The check above finds a cycle where there is one, through a third package too, and only that one. */
  @Test
  void theCycleSearchFindsACycleAndOnlyIt() {
    PackageGraph graph = new PackageGraph();
    graph.add("a/A", "b/B");
    graph.add("b/B", "c/C");
    graph.add("c/C", "a/A2");
    graph.add("d/D", "a/A");
    graph.add("a/A", "a/A2");
    List<List<String>> cycles = graph.cycles();
    assertEquals(1, cycles.size(), format(cycles));
    assertEquals(List.of("a uses b (a/A -> b/B)", "b uses c (b/B -> c/C)", "c uses a (c/C -> a/A2)"), cycles.get(0));
  }

  private static String format(List<List<String>> cycles) {
    StringBuilder out = new StringBuilder();
    for (List<String> cycle : cycles) {
      out.append("  cycle:\n");
      cycle.forEach(edge -> out.append("    ").append(edge).append('\n'));
    }
    return out.toString();
  }
}
