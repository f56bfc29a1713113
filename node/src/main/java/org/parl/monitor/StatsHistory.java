package org.parl.monitor;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The recent host statistics of each worker (load, memory, per-GPU utilisation and memory), kept
 * so that a page opened now can draw the last few minutes at once. One point per statistics
 * report, at most {@code capacity} per worker; workers that left are forgotten. Plain Java.
 */
public final class StatsHistory {

  private final int capacity;
  private final Map<String, ArrayDeque<JsonObject>> points = new HashMap<>();

  public StatsHistory(int capacity) {
    this.capacity = capacity;
  }

  /** Takes the new reports out of a cluster view ({@link ClusterView}). */
  public void record(JsonObject view) {
    Set<String> present = new TreeSet<>();
    for (Object o : view.getJsonArray("workers")) {
      JsonObject w = (JsonObject) o;
      String id = w.getString("id");
      present.add(id);
      Long at = w.getLong("statsAt");
      if (at == null) {
        continue;
      }
      ArrayDeque<JsonObject> q = points.computeIfAbsent(id, k -> new ArrayDeque<>());
      if (!q.isEmpty() && q.peekLast().getLong("t") >= at) {
        continue;
      }
      q.addLast(point(w, at));
      while (q.size() > capacity) {
        q.removeFirst();
      }
    }
    points.keySet().retainAll(present);
  }

  private static JsonObject point(JsonObject w, long at) {
    JsonObject gpus = new JsonObject();
    for (Object o : w.getJsonArray("gpuDevices")) {
      JsonObject d = (JsonObject) o;
      gpus.put(String.valueOf(d.getValue("index")), new JsonObject()
          .put("utilization", d.getValue("utilization"))
          .put("memoryUsedMb", d.getValue("memoryUsedMb")));
    }
    JsonObject mem = w.getJsonObject("memory");
    return new JsonObject()
        .put("t", at)
        .put("load", w.getValue("load"))
        .put("memoryUsedMb", mem == null ? null : mem.getValue("usedMb"))
        .put("gpus", gpus);
  }

  /**
   * Worker id to columns, the layout uPlot draws: {@code t} (seconds), {@code load},
   * {@code memoryUsedMb}, and per GPU id {@code utilization} and {@code memoryUsedMb} (null where
   * a report lacked that GPU).
   */
  public JsonObject toJson() {
    JsonObject out = new JsonObject();
    new TreeMap<>(points).forEach((id, q) -> {
      JsonArray t = new JsonArray();
      JsonArray load = new JsonArray();
      JsonArray mem = new JsonArray();
      Set<String> gpuIds = new TreeSet<>();
      q.forEach(p -> gpuIds.addAll(p.getJsonObject("gpus").fieldNames()));
      Map<String, JsonArray> util = new TreeMap<>();
      Map<String, JsonArray> gmem = new TreeMap<>();
      for (JsonObject p : q) {
        t.add(p.getLong("t") / 1000.0);
        load.add(p.getValue("load"));
        mem.add(p.getValue("memoryUsedMb"));
        for (String g : gpuIds) {
          JsonObject d = p.getJsonObject("gpus").getJsonObject(g);
          util.computeIfAbsent(g, k -> new JsonArray()).add(d == null ? null : d.getValue("utilization"));
          gmem.computeIfAbsent(g, k -> new JsonArray()).add(d == null ? null : d.getValue("memoryUsedMb"));
        }
      }
      JsonObject gpus = new JsonObject();
      for (String g : gpuIds) {
        gpus.put(g, new JsonObject().put("utilization", util.get(g)).put("memoryUsedMb", gmem.get(g)));
      }
      out.put(id, new JsonObject().put("t", t).put("load", load).put("memoryUsedMb", mem).put("gpus", gpus));
    });
    return out;
  }
}
