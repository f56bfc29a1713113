package org.parl.cluster;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.shareddata.AsyncMap;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one owner's records through to a cluster-wide map, as JSON text that any member can
 * read.
 *
 * <p>Writes are coalesced per key: at most one write per key is in flight, and when it completes
 * the latest state is written if it changed meanwhile. The owner can therefore publish on every
 * change without flooding Hazelcast, and writes of one key never overtake each other. Used from
 * the owner's context only.
 */
public final class MapPublisher {

  private static final Logger log = LoggerFactory.getLogger(MapPublisher.class);

  private final String name;
  private final Future<AsyncMap<String, String>> map;
  private final Map<String, Slot> slots = new HashMap<>();

  public MapPublisher(Vertx vertx, String name) {
    this.name = name;
    this.map = vertx.sharedData().getClusterWideMap(name);
  }

  /** Publishes the record of {@code key}, as JSON text; the supplier is called when the write happens. */
  public void put(String key, Supplier<String> record) {
    Slot s = slot(key);
    s.next = record;
    s.removal = false;
    pump(key);
  }

  public void remove(String key) {
    Slot s = slot(key);
    s.next = null;
    s.removal = true;
    pump(key);
  }

  private Slot slot(String key) {
    return slots.computeIfAbsent(key, k -> new Slot());
  }

  private void pump(String key) {
    Slot s = slots.get(key);
    if (s.inFlight || (!s.removal && s.next == null)) {
      return;
    }
    s.inFlight = true;
    Future<?> write;
    if (s.removal) {
      s.removal = false;
      write = map.compose(m -> m.remove(key));
    } else {
      String json = s.next.get();
      s.next = null;
      write = map.compose(m -> m.put(key, json));
    }
    write.onComplete(ar -> {
      if (ar.failed()) {
        log.warn("could not publish {} to map {}: {}", key, name, ar.cause().getMessage());
      }
      s.inFlight = false;
      if (s.next == null && !s.removal) {
        slots.remove(key);
      } else {
        pump(key);
      }
    });
  }

  private static final class Slot {
    Supplier<String> next;
    boolean removal;
    boolean inFlight;
  }
}
