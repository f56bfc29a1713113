package org.parl.bench;

import java.util.Arrays;

/** Durations in nanoseconds, and their percentiles (nearest rank). Not thread-safe. */
final class Samples {

  private long[] values;
  private int count;

  Samples(int capacity) {
    values = new long[Math.max(1, capacity)];
  }

  void add(long nanos) {
    if (count == values.length) {
      values = Arrays.copyOf(values, count * 2);
    }
    values[count++] = nanos;
  }

  void addAll(Samples other) {
    for (int i = 0; i < other.count; i++) {
      add(other.values[i]);
    }
  }

  int count() {
    return count;
  }

  /** The {@code p}-th percentile (0 < p <= 100) in nanoseconds. */
  double percentile(double p) {
    if (count == 0) {
      throw new IllegalStateException("no samples");
    }
    long[] sorted = Arrays.copyOf(values, count);
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p / 100.0 * count);
    return sorted[Math.min(count, Math.max(1, rank)) - 1];
  }

  double micros(double p) {
    return percentile(p) / 1_000.0;
  }

  double millis(double p) {
    return percentile(p) / 1_000_000.0;
  }

  /** How many samples took longer than {@code nanos}. */
  int over(long nanos) {
    int n = 0;
    for (int i = 0; i < count; i++) {
      if (values[i] > nanos) {
        n++;
      }
    }
    return n;
  }
}
