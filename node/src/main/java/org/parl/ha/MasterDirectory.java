package org.parl.ha;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.EntryEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.parl.cluster.Addresses;
import org.parl.cluster.ClusterNode;
import org.parl.control.ControlBus;
import org.parl.control.LocalEvent.MastersChanged;
import org.parl.internal.security.ClusterToken;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's view of the cluster's masters (docs/contract.md §10): the verified records in
 * {@value Addresses#MASTERS_MAP} joined with Hazelcast's member list, and the election over them
 * ({@link Masters}). Every master, worker and monitor process runs one. When the active master
 * changes, it publishes {@link MastersChanged} on {@value Addresses#MASTERS_CHANGED} in this node;
 * {@link #current()} may be read from any thread.
 */
public final class MasterDirectory extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(MasterDirectory.class);
  private static final long RETRY_MS = 250;

  private final ClusterNode node;
  private final ClusterToken token;
  private IMap<String, String> map;
  private volatile Masters current = Masters.NONE;
  /** This master's own record once announced (null on workers and monitors): kept in the map. */
  private volatile MasterRecord self;
  private boolean reading;
  private boolean readAgain;
  private boolean readFailing;
  /** Completed on each read: {@link #announce} waits for its own record to appear. */
  private final List<Promise<Masters>> readers = new ArrayList<>();

  public MasterDirectory(ClusterNode node, ClusterToken token) {
    this.node = node;
    this.token = token;
  }

  @Override
  public Future<?> start() {
    map = node.hazelcast().getMap(Addresses.MASTERS_MAP);
    map.addEntryListener(new Changes(), false);
    node.onMemberRemoved(left -> context.runOnContext(v -> read()));
    return read();
  }

  /** The masters as last read. */
  public Masters current() {
    return current;
  }

  /**
   * Publishes this master's record; completes once this node's view includes it, with that view.
   * Runs on any thread.
   */
  public Future<Masters> announce(MasterRecord own) {
    this.self = own;
    Promise<Masters> seen = Promise.promise();
    context.runOnContext(v -> vertx.<Void>executeBlocking(() -> {
      map.put(own.memberId(), own.sign(token));
      return null;
    }, false).compose(put -> read()).onComplete(ar -> {
      if (ar.succeeded() && ar.result().byMember(own.memberId()).isPresent()) {
        seen.complete(ar.result());
      } else if (ar.succeeded()) {
        seen.fail("the master record of " + own.memberId() + " is not visible in the cluster after writing it");
      } else {
        seen.fail(ar.cause());
      }
    }));
    return seen.future();
  }

  /** Reads the map and the member list off the event loop, one read at a time, and elects. */
  private Future<Masters> read() {
    Promise<Masters> done = Promise.promise();
    readers.add(done);
    if (reading) {
      readAgain = true;
      return done.future();
    }
    reading = true;
    vertx.executeBlocking(this::elect, false).onComplete(ar -> {
      reading = false;
      if (ar.succeeded()) {
        readFailing = false;
        changed(ar.result());
      } else { // a partition being migrated after a member died, say: read again shortly
        if (!readFailing) {
          log.warn("could not read the cluster's masters (trying again): {}", ar.cause().getMessage());
        }
        readFailing = true;
        vertx.setTimer(RETRY_MS, t -> read());
      }
      if (readAgain) {
        readAgain = false;
        read();
        return;
      }
      List<Promise<Masters>> waiting = List.copyOf(readers);
      readers.clear();
      waiting.forEach(p -> p.handle(ar));
    });
    return done.future();
  }

  private Masters elect() {
    List<String> members = new ArrayList<>();
    for (Member m : node.hazelcast().getCluster().getMembers()) {
      members.add(m.getUuid().toString());
    }
    MasterRecord own = self;
    if (own != null && !map.containsKey(own.memberId())) {
      // lost with a partition whose primary and backup members died together: written again
      log.warn("this master's record was lost from the cluster map: writing it again");
      map.put(own.memberId(), own.sign(token));
    }
    Map<String, MasterRecord> records = new HashMap<>();
    for (Map.Entry<String, String> e : map.entrySet()) {
      MasterRecord.verify(e.getValue(), token).filter(r -> r.memberId().equals(e.getKey()))
          .ifPresent(r -> records.put(r.memberId(), r));
    }
    Masters elected = Masters.elect(members, records);
    String self = node.memberId();
    if (elected.isActive(self)) { // the active master forgets the records of masters that are gone
      for (String key : map.keySet()) {
        if (!members.contains(key)) {
          map.remove(key);
        }
      }
    }
    return elected;
  }

  private void changed(Masters now) {
    Masters before = current;
    current = now;
    String was = before.active().map(MasterRecord::memberId).orElse(null);
    String is = now.active().map(MasterRecord::memberId).orElse(null);
    if (was == null ? is != null : !was.equals(is)) {
      log.info("active master: {}", now.active().map(a -> a.address() + " (member " + a.memberId() + ")").orElse("none"));
      ControlBus.publishLocal(vertx, Addresses.MASTERS_CHANGED,
          new MastersChanged(is, was, before.active().map(MasterRecord::address).orElse(null)));
    }
  }

  /** Map events arrive on Hazelcast's threads: each one triggers a read on this verticle's context. */
  private final class Changes implements EntryAddedListener<String, String>, EntryUpdatedListener<String, String>,
      EntryRemovedListener<String, String> {
    @Override
    public void entryAdded(EntryEvent<String, String> event) {
      context.runOnContext(v -> read());
    }

    @Override
    public void entryUpdated(EntryEvent<String, String> event) {
      context.runOnContext(v -> read());
    }

    @Override
    public void entryRemoved(EntryEvent<String, String> event) {
      context.runOnContext(v -> read());
    }
  }
}
