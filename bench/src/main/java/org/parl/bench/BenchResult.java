package org.parl.bench;

import io.vertx.core.json.JsonObject;
import java.io.PrintStream;

/** What a benchmark run measured: the table to print and the JSON line. */
public final class BenchResult {

  private final Report report;

  BenchResult(Report report) {
    this.report = report;
  }

  public void printTable(PrintStream out) {
    report.print(out);
  }

  public JsonObject json() {
    return report.json();
  }

  /** How many targets were missed. */
  public long missed() {
    return report.metrics().stream().filter(m -> Boolean.FALSE.equals(m.met())).count();
  }
}
