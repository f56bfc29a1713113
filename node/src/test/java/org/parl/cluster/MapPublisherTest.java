package org.parl.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.parl.internal.security.SignedRecords;

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

  private static final SignedRecords SIGNER = new SignedRecords(new byte[32]);

  private static String v(String value) {
    return "{\"v\":\"" + value + "\"}";
  }

  /** The records of a batch as they were before signing; each must carry its signature for map m and its key. */
  private static Map<String, String> bodies(Map<String, String> puts) {
    Map<String, String> out = new java.util.HashMap<>();
    puts.forEach((k, stored) -> out.put(k, SIGNER.verify("m", k, stored).orElseThrow(() -> new AssertionError("unsigned: " + stored))));
    return out;
  }

  @Test
  void changesMadeWhileABatchIsInFlightGoTogetherWithTheLatestRecordOfEachKey() {
    HeldWriter w = new HeldWriter();
    MapPublisher p = new MapPublisher("m", w, SIGNER, Runnable::run);
    AtomicInteger built = new AtomicInteger();
    p.put("a", () -> v("a1"));
    for (int i = 2; i <= 5; i++) {
      String v = "b" + i;
      p.put("b", () -> {
        built.incrementAndGet();
        return v(v);
      });
    }
    p.put("a", () -> v("a2"));
    assertEquals(1, w.batches.size(), "one batch in flight at a time");
    assertEquals(Map.of("a", v("a1")), bodies(w.batches.get(0).puts()));
    w.batches.get(0).done().complete();
    assertEquals(2, w.batches.size());
    assertEquals(Map.of("a", v("a2"), "b", v("b5")), bodies(w.batches.get(1).puts()));
    assertEquals(1, built.get(), "only the latest record of b was built");
    w.batches.get(1).done().complete();
    assertEquals(2, w.batches.size(), "nothing left to write");
  }

  @Test
  void aRecordRemovedBeforeItWasWrittenIsNeverWrittenAndAWrittenOneIsRemovedAfterItsPut() {
    HeldWriter w = new HeldWriter();
    MapPublisher p = new MapPublisher("m", w, SIGNER, Runnable::run);
    p.put("keep", () -> v("k"));
    p.put("short", () -> v("s"));
    p.remove("short");
    p.remove("keep");
    w.batches.get(0).done().complete();
    assertEquals(2, w.batches.size());
    assertEquals(Map.of(), bodies(w.batches.get(1).puts()));
    assertEquals(List.of("keep"), w.batches.get(1).removals());
  }

  @Test
  void aFailedBatchIsLoggedAndTheNextOneStillGoes() {
    HeldWriter w = new HeldWriter();
    MapPublisher p = new MapPublisher("m", w, SIGNER, Runnable::run);
    p.put("a", () -> v("1"));
    p.put("a", () -> v("2"));
    w.batches.get(0).done().fail("the map is gone");
    assertEquals(Map.of("a", v("2")), bodies(w.batches.get(1).puts()));
  }

  @Test
  void aBatchIsSentAfterTheOwnersCurrentTaskWithAllOfItsChanges() {
    HeldWriter w = new HeldWriter();
    java.util.ArrayDeque<Runnable> context = new java.util.ArrayDeque<>();
    MapPublisher p = new MapPublisher("m", w, SIGNER, context::add);
    p.put("a", () -> v("1"));
    p.put("b", () -> v("2"));
    assertEquals(0, w.batches.size(), "nothing is signed or sent inside the task that made the change");
    assertEquals(1, context.size(), "one write is scheduled for the changes of one task");
    context.poll().run();
    assertEquals(Map.of("a", v("1"), "b", v("2")), bodies(w.batches.get(0).puts()));
    p.put("a", () -> v("3"));
    assertEquals(0, context.size(), "while a batch is in flight its completion sends the next");
    w.batches.get(0).done().complete();
    assertEquals(Map.of("a", v("3")), bodies(w.batches.get(1).puts()));
  }

  @Test
  void aStoppingOwnerFlushesWhatIsPendingAtOnce() {
    HeldWriter w = new HeldWriter();
    java.util.ArrayDeque<Runnable> context = new java.util.ArrayDeque<>();
    MapPublisher p = new MapPublisher("m", w, SIGNER, context::add);
    p.put("gone", () -> v("x"));
    p.flush();
    assertEquals(Map.of("gone", v("x")), bodies(w.batches.get(0).puts()), "sent inside the stopping task");
    context.poll().run();
    assertEquals(1, w.batches.size(), "the scheduled write finds nothing left");
  }
}
