package org.parl.cluster;

import com.hazelcast.map.IMap;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.shareddata.AsyncMap;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.parl.internal.security.SignedRecords;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one owner's records through to a cluster-wide map, as JSON text that any member can
 * read, each signed ({@link SignedRecords}).
 *
 * <p>Writes are coalesced: at most one batch of writes is in flight, and the changes made while it
 * is are written together when it completes, each key with its latest state. The owner can
 * therefore publish on every change without flooding Hazelcast, writes of one key never overtake
 * each other, and the map lags the owner by at most one batch. A record put and removed again
 * before it was ever written is not written at all. Used from the owner's context only.
 *
 * <p>A batch is built and sent after the owner's current task, not inside it: signing and
 * serialising records (noticeable per key on a small host) then never delays what the task answers,
 * such as a JobCenter's grant, and the changes of one task go in one batch.
 *
 * <p>On a Hazelcast cluster the batch goes straight to the map, its completions run on the owner's
 * context: Vert.x's {@link AsyncMap} completes each write on Hazelcast's default executor, which on
 * a host whose common fork-join pool has one thread (two cores) starts a new thread per write.
 */
public final class MapPublisher {

  private static final Logger log = LoggerFactory.getLogger(MapPublisher.class);
  private static final Supplier<String> REMOVAL = () -> null;

  private final String name;
  private final Writer writer;
  private final SignedRecords signer;
  /** Keys changed since the last batch was sent: the latest record, or {@link #REMOVAL}. */
  private final Map<String, Supplier<String>> pending = new LinkedHashMap<>();
  /** Keys whose last write sent was a put: a removal of any other key has nothing to remove. */
  private final Set<String> published = new HashSet<>();
  private boolean inFlight;
  /** Runs a task on the owner's context after the current one. */
  private final Executor afterThisTask;
  private boolean scheduled;

  /** @param signer signs every record written ({@link SignedRecords}): readers ignore unsigned ones */
  public MapPublisher(Vertx vertx, String name, SignedRecords signer) {
    this.name = name;
    this.signer = signer;
    Context context = vertx.getOrCreateContext();
    Executor onContext = task -> context.runOnContext(x -> task.run());
    this.afterThisTask = onContext;
    if (vertx instanceof VertxInternal v && v.clusterManager() instanceof HazelcastClusterManager hz) {
      this.writer = new Direct(hz.getHazelcastInstance().getMap(name), onContext);
    } else {
      this.writer = new ViaVertx(vertx.sharedData().getAsyncMap(name));
    }
  }

  /** With a writer and a scheduler of the caller's (tests). */
  MapPublisher(String name, Writer writer, SignedRecords signer, Executor afterThisTask) {
    this.name = name;
    this.writer = writer;
    this.signer = signer;
    this.afterThisTask = afterThisTask;
  }

  /** Publishes the record of {@code key}, as JSON text; the supplier is called when the write is sent. */
  public void put(String key, Supplier<String> record) {
    pending.put(key, record);
    pumpLater();
  }

  public void remove(String key) {
    if (published.contains(key)) {
      pending.put(key, REMOVAL);
    } else {
      pending.remove(key); // never written (or already removed): nothing to remove
    }
    pumpLater();
  }

  /** Sends what is pending now rather than after the current task: for an owner that is stopping. */
  public void flush() {
    pump();
  }

  private void pumpLater() {
    if (!scheduled && !inFlight) {
      scheduled = true;
      afterThisTask.execute(() -> {
        scheduled = false;
        pump();
      });
    }
  }

  private void pump() {
    if (inFlight || pending.isEmpty()) {
      return;
    }
    Map<String, String> puts = new HashMap<>();
    List<String> removals = new ArrayList<>();
    for (Map.Entry<String, Supplier<String>> e : pending.entrySet()) {
      if (e.getValue() == REMOVAL) {
        removals.add(e.getKey());
        published.remove(e.getKey());
      } else {
        puts.put(e.getKey(), signer.sign(name, e.getKey(), e.getValue().get()));
        published.add(e.getKey());
      }
    }
    pending.clear();
    inFlight = true;
    writer.write(puts, removals).onComplete(ar -> {
      if (ar.failed()) {
        log.warn("could not publish {} record(s) to map {}: {}", puts.size() + removals.size(), name,
            ar.cause().getMessage());
      }
      inFlight = false;
      pump();
    });
  }

  /** Sends one batch; the future completes on the owner's context. */
  interface Writer {
    Future<Void> write(Map<String, String> puts, List<String> removals);
  }

  /** Hazelcast's map itself: one operation per key, completions on the owner's context. */
  private static final class Direct implements Writer {
    private final IMap<String, String> map;
    private final Executor onContext;

    Direct(IMap<String, String> map, Executor onContext) {
      this.map = map;
      this.onContext = onContext;
    }

    @Override
    public Future<Void> write(Map<String, String> puts, List<String> removals) {
      // one setAsync per key: setAllAsync hands its work to Hazelcast's default executor (a thread per call here)
      List<CompletionStage<?>> writes = new ArrayList<>();
      puts.forEach((k, v) -> writes.add(map.setAsync(k, v)));
      for (String key : removals) {
        writes.add(map.removeAsync(key));
      }
      Promise<Void> done = Promise.promise();
      if (writes.isEmpty()) {
        done.complete();
      }
      int[] left = {writes.size()};
      Throwable[] failure = {null};
      for (CompletionStage<?> w : writes) {
        w.whenCompleteAsync((v, e) -> {
          if (e != null && failure[0] == null) {
            failure[0] = e;
          }
          if (--left[0] == 0) {
            if (failure[0] == null) {
              done.complete();
            } else {
              done.fail(failure[0]);
            }
          }
        }, onContext);
      }
      return done.future();
    }
  }

  /** Vert.x's map (cluster-wide on a cluster that is not Hazelcast, local without one): one write per key. */
  private static final class ViaVertx implements Writer {
    private final Future<AsyncMap<String, String>> map;

    ViaVertx(Future<AsyncMap<String, String>> map) {
      this.map = map;
    }

    @Override
    public Future<Void> write(Map<String, String> puts, List<String> removals) {
      return map.compose(m -> {
        List<Future<?>> writes = new ArrayList<>();
        puts.forEach((k, v) -> writes.add(m.put(k, v)));
        removals.forEach(k -> writes.add(m.remove(k)));
        return Future.join(writes).mapEmpty();
      });
    }
  }
}
