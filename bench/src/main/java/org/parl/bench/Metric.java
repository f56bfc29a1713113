package org.parl.bench;

import io.vertx.core.json.JsonObject;

/**
 * One row of the result table.
 *
 * @param key the name in the JSON line, with its unit ({@code noop_p50_us})
 * @param name what the table calls it
 * @param value the measured value, in {@code unit}
 * @param parl PARL's published figure, as text, or null
 * @param target the goal, or null for a figure that is only reported
 * @param vsTcp value divided by the plain-TCP figure of the same run, or null
 */
record Metric(String key, String name, double value, String unit, String parl, Target target, Double vsTcp) {

  /** This row as JSON, for a probe that measures in another process ({@link #of} reads it back). */
  JsonObject json() {
    JsonObject t = target == null ? null : new JsonObject().put("text", target.text()).put("max", target.max())
        .put("min", target.min()).put("maxRatio", target.maxRatio());
    return new JsonObject().put("key", key).put("name", name).put("value", value).put("unit", unit).put("parl", parl)
        .put("target", t).put("vsTcp", vsTcp);
  }

  /** A row written by {@link #json()}. */
  static Metric of(JsonObject j) {
    JsonObject t = j.getJsonObject("target");
    return new Metric(j.getString("key"), j.getString("name"), j.getDouble("value"), j.getString("unit"), j.getString("parl"),
        t == null ? null : new Target(t.getString("text"), t.getDouble("max"), t.getDouble("min"), t.getDouble("maxRatio")),
        j.getDouble("vsTcp"));
  }

  /** Met, missed, or null without a target. */
  Boolean met() {
    return target == null ? null : target.met(value, vsTcp);
  }
}
