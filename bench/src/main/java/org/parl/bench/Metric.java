package org.parl.bench;

/**
 * One row of the result table.
 *
 * @param key the name in the JSON line, with its unit ({@code noop_p50_us})
 * @param name what the table calls it
 * @param value the measured value, in {@code unit}
 * @param parl PARL's figure from DESIGN-NOTES, as text, or null
 * @param target the goal, or null for a figure that is only reported
 * @param vsTcp value divided by the plain-TCP figure of the same run, or null
 */
record Metric(String key, String name, double value, String unit, String parl, Target target, Double vsTcp) {

  /** Met, missed, or null without a target. */
  Boolean met() {
    return target == null ? null : target.met(value, vsTcp);
  }
}
