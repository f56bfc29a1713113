package org.parl.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * parl's modules as its POMs declare them: the root POM lists them bottom-up (a module comes after
 * every module it uses), and each module's POM names the parl modules it depends on.
 */
final class ReactorModules {

  private static final String GROUP = "org.parl";

  /** A module: its folder, its artifact, its place in the root POM's list and the parl artifacts it depends on outside tests. */
  record Module(String dir, String artifactId, int layer, List<String> dependsOn) {}

  private final Map<String, Module> byArtifact = new LinkedHashMap<>();

  private ReactorModules() {}

  /** Reads the root POM under {@code root} and the POM of each module it lists. */
  static ReactorModules read(Path root) throws Exception {
    ReactorModules modules = new ReactorModules();
    List<String> dirs = new ArrayList<>();
    for (Element m : children(child(parse(root.resolve("pom.xml")), "modules"), "module")) {
      dirs.add(m.getTextContent().trim());
    }
    for (String dir : dirs) {
      Element pom = parse(root.resolve(dir).resolve("pom.xml"));
      List<String> deps = new ArrayList<>();
      Element dependencies = child(pom, "dependencies");
      for (Element d : dependencies == null ? List.<Element>of() : children(dependencies, "dependency")) {
        Element scope = child(d, "scope");
        if (GROUP.equals(text(d, "groupId")) && (scope == null || !"test".equals(scope.getTextContent().trim()))) {
          deps.add(text(d, "artifactId"));
        }
      }
      String artifactId = text(pom, "artifactId");
      modules.byArtifact.put(artifactId, new Module(dir, artifactId, modules.byArtifact.size(), List.copyOf(deps)));
    }
    return modules;
  }

  /** The modules in the root POM's order, bottom first. */
  List<Module> all() {
    return List.copyOf(byArtifact.values());
  }

  /** The module of an artifact, or null when it is not one of the reactor's. */
  Module byArtifact(String artifactId) {
    return byArtifact.get(artifactId);
  }

  /** The module and every reactor module it depends on, directly or through others. */
  Set<Module> closure(Module module) {
    Set<Module> seen = new LinkedHashSet<>();
    Deque<Module> todo = new ArrayDeque<>(List.of(module));
    while (!todo.isEmpty()) {
      Module m = todo.pop();
      if (seen.add(m)) {
        for (String dep : m.dependsOn()) {
          Module d = byArtifact.get(dep);
          if (d != null) {
            todo.push(d);
          }
        }
      }
    }
    return seen;
  }

  private static Element parse(Path pom) throws Exception {
    if (!Files.isRegularFile(pom)) {
      throw new IOException("no POM at " + pom);
    }
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile()).getDocumentElement();
  }

  private static String text(Element parent, String name) {
    Element e = child(parent, name);
    return e == null ? null : e.getTextContent().trim();
  }

  private static Element child(Element parent, String name) {
    List<Element> found = children(parent, name);
    return found.isEmpty() ? null : found.get(0);
  }

  private static List<Element> children(Element parent, String name) {
    List<Element> out = new ArrayList<>();
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        out.add(e);
      }
    }
    return out;
  }
}
