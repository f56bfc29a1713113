package org.parl.bench;

/**
 * A goal for one metric (BENCHMARKS.md lists them): an upper or lower bound, and optionally a bound on the
 * ratio to the plain-TCP baseline measured in the same run.
 *
 * @param text how the table shows it
 * @param max the value must be at most this, or null
 * @param min the value must be at least this, or null
 * @param maxRatio the ratio to plain TCP must be at most this, or null
 */
record Target(String text, Double max, Double min, Double maxRatio) {

  static Target atMost(double max, String text) {
    return new Target(text, max, null, null);
  }

  static Target atLeast(double min, String text) {
    return new Target(text, null, min, null);
  }

  static Target ratioAtMost(double maxRatio, String text) {
    return new Target(text, null, null, maxRatio);
  }

  static Target atMostAndRatio(double max, double maxRatio, String text) {
    return new Target(text, max, null, maxRatio);
  }

  /** Whether {@code value} (and {@code ratio}, when the target has one) meets it. */
  boolean met(double value, Double ratio) {
    boolean ok = (max == null || value <= max) && (min == null || value >= min);
    if (maxRatio != null) {
      ok &= ratio != null && ratio <= maxRatio;
    }
    return ok;
  }
}
