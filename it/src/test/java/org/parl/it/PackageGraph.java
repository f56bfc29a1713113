package org.parl.it;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Which package uses which, each use with one example, and the cycles among them. */
final class PackageGraph {

  /** package, then each package it uses, with the first class reference seen that makes the use. */
  private final Map<String, Map<String, String>> uses = new TreeMap<>();

  /** Records that class {@code from} names class {@code to} (internal names); a use within one package is none. */
  void add(String from, String to) {
    String a = packageOf(from);
    String b = packageOf(to);
    uses.computeIfAbsent(a, k -> new TreeMap<>());
    uses.computeIfAbsent(b, k -> new TreeMap<>());
    if (!a.equals(b)) {
      uses.get(a).putIfAbsent(b, from + " -> " + to);
    }
  }

  static String packageOf(String internalName) {
    int slash = internalName.lastIndexOf('/');
    return slash < 0 ? "" : internalName.substring(0, slash).replace('/', '.');
  }

  /** The packages, each with the packages it uses. */
  Set<String> packages() {
    return uses.keySet();
  }

  /**
   * Each set of packages that reach each other through their uses (the strongly connected
   * components of more than one package, by Tarjan's algorithm), with the uses inside it.
   */
  List<List<String>> cycles() {
    Tarjan t = new Tarjan();
    for (String p : uses.keySet()) {
      if (!t.index.containsKey(p)) {
        t.visit(p);
      }
    }
    List<List<String>> out = new ArrayList<>();
    for (Set<String> component : t.components) {
      List<String> edges = new ArrayList<>();
      for (String a : component) {
        uses.get(a).forEach((b, example) -> {
          if (component.contains(b)) {
            edges.add(a + " uses " + b + " (" + example + ")");
          }
        });
      }
      out.add(edges);
    }
    return out;
  }

  /** Tarjan's strongly connected components; the graph is a few dozen packages, so recursion is fine. */
  private final class Tarjan {
    final Map<String, Integer> index = new HashMap<>();
    final Map<String, Integer> low = new HashMap<>();
    final Deque<String> stack = new ArrayDeque<>();
    final Set<String> onStack = new TreeSet<>();
    final List<Set<String>> components = new ArrayList<>();

    void visit(String v) {
      index.put(v, index.size());
      low.put(v, index.get(v));
      stack.push(v);
      onStack.add(v);
      for (String w : uses.get(v).keySet()) {
        if (!index.containsKey(w)) {
          visit(w);
          low.put(v, Math.min(low.get(v), low.get(w)));
        } else if (onStack.contains(w)) {
          low.put(v, Math.min(low.get(v), index.get(w)));
        }
      }
      if (low.get(v).equals(index.get(v))) {
        Set<String> component = new TreeSet<>();
        String w;
        do {
          w = stack.pop();
          onStack.remove(w);
          component.add(w);
        } while (!w.equals(v));
        if (component.size() > 1) {
          components.add(component);
        }
      }
    }
  }
}
