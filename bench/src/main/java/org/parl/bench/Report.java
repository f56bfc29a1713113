package org.parl.bench;

import io.vertx.core.json.JsonObject;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The benchmark's results: a readable table, and one JSON object with every number. */
final class Report {

  private final List<Metric> metrics = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private final JsonObject context = new JsonObject();

  void add(Metric m) {
    metrics.add(m);
  }

  void note(String line) {
    notes.add(line);
  }

  /** Run conditions for the JSON line (mode, cores, load, ...). */
  void context(String key, Object value) {
    context.put(key, value);
  }

  /** The value of the metric with this key, or null. */
  Double value(String key) {
    return metrics.stream().filter(m -> m.key().equals(key)).map(Metric::value).findFirst().orElse(null);
  }

  List<Metric> metrics() {
    return List.copyOf(metrics);
  }

  void print(PrintStream out) {
    String format = "%-52s %10s %-6s %-9s %-22s %-7s %s%n";
    out.printf(format, "metric", "value", "unit", "PARL", "target", "vs TCP", "result");
    out.println("-".repeat(118));
    for (Metric m : metrics) {
      Boolean met = m.met();
      out.printf(format, m.name(), number(m.value()), m.unit(), m.parl() == null ? "-" : m.parl(),
          m.target() == null ? "-" : m.target().text(),
          m.vsTcp() == null ? "-" : ratio(m.vsTcp()),
          met == null ? "" : met ? "met" : "MISSED");
    }
    for (String n : notes) {
      out.println("  " + n);
    }
  }

  JsonObject json() {
    JsonObject values = new JsonObject();
    JsonObject targets = new JsonObject();
    for (Metric m : metrics) {
      values.put(m.key(), round(m.value()));
      if (m.vsTcp() != null) {
        values.put(m.key() + "_vs_tcp", round(m.vsTcp()));
      }
      if (m.target() != null) {
        targets.put(m.key(), m.met());
      }
    }
    return new JsonObject().put("parlBench", 1).mergeIn(context).put("metrics", values).put("targetsMet", targets);
  }

  /** A ratio to two decimals, or to two significant digits when it is that small (the scale rows). */
  private static String ratio(double r) {
    return String.format(Locale.ROOT, r >= 0.1 ? "%.2fx" : "%.2gx", r);
  }

  static String number(double v) {
    double a = Math.abs(v);
    if (v == Math.rint(v) && a < 100) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    String f = a >= 1000 ? "%,.0f" : a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : "%.2f";
    return String.format(Locale.ROOT, f, v).replace(',', ' ');
  }

  /** Three decimals; four significant digits below 1 (the scale rows' ratios are a few thousandths). */
  private static double round(double v) {
    return v != 0 && Math.abs(v) < 1 ? new BigDecimal(v).round(new MathContext(4)).doubleValue() : Math.round(v * 1000.0) / 1000.0;
  }
}
