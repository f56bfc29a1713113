package org.parl.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** How {@link MapPublisher} batches its writes: one batch in flight, the latest record of each key. */
class MapPublisherTest {

  /** A batch as the writer received it. */
  private record Batch(Map<String, String> puts, List<String> removals, Promise<Void> done) {}

  /** Keeps each batch in flight until the test completes it. */
  private static final class HeldWriter implements MapPublisher.Writer {
    final List<Batch> batches = new ArrayList<>();

    @Override
    public Future<Void> write(Map<String, String> puts, List<String> removals) {
      Batch b = new Batch(Map.copyOf(puts), List.copyOf(removals), Promise.promise());
      batches.add(b);
      return b.done().future();
    }
  }

  @Test
  void changesMadeWhileABatchIsInFlightGoTogetherWithTheLatestRecordOfEachKey() {
    HeldWriter w = new HeldWriter();
    MapPublisher p = new MapPublisher("m", w);
    AtomicInteger built = new AtomicInteger();
    p.put("a", () -> "a1");
    for (int i = 2; i <= 5; i++) {
      String v = "b" + i;
      p.put("b", () -> {
        built.incrementAndGet();
        return v;
      });
    }
    p.put("a", () -> "a2");
    assertEquals(1, w.batches.size(), "one batch in flight at a time");
    assertEquals(Map.of("a", "a1"), w.batches.get(0).puts());
    w.batches.get(0).done().complete();
    assertEquals(2, w.batches.size());
    assertEquals(Map.of("a", "a2", "b", "b5"), w.batches.get(1).puts());
    assertEquals(1, built.get(), "only the latest record of b was built");
    w.batches.get(1).done().complete();
    assertEquals(2, w.batches.size(), "nothing left to write");
  }

  @Test
  void aRecordRemovedBeforeItWasWrittenIsNeverWrittenAndAWrittenOneIsRemovedAfterItsPut() {
    HeldWriter w = new HeldWriter();
    MapPublisher p = new MapPublisher("m", w);
    p.put("keep", () -> "k");
    p.put("short", () -> "s");
    p.remove("short");
    p.remove("keep");
    w.batches.get(0).done().complete();
    assertEquals(2, w.batches.size());
    assertEquals(Map.of(), w.batches.get(1).puts());
    assertEquals(List.of("keep"), w.batches.get(1).removals());
  }

  @Test
  void aFailedBatchIsLoggedAndTheNextOneStillGoes() {
    HeldWriter w = new HeldWriter();
    MapPublisher p = new MapPublisher("m", w);
    p.put("a", () -> "1");
    p.put("a", () -> "2");
    w.batches.get(0).done().fail("the map is gone");
    assertEquals(Map.of("a", "2"), w.batches.get(1).puts());
  }
}
