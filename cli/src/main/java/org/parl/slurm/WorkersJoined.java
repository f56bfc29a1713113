package org.parl.slurm;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.parl.cluster.Addresses;
import org.parl.cluster.ClusterNode;
import org.parl.node.NodeFailure;

/**
 * Waits until a given number of workers have joined the cluster, from the JobCenter's record of
 * workers ({@value Addresses#WORKERS_MAP}): an entry listener counts them as they come, so nothing
 * polls; the wait fails at once if the workers' step ends first.
 */
public final class WorkersJoined {

  private WorkersJoined() {}

  /**
   * Returns once {@code count} workers are in the cluster of {@code master}.
   *
   * @param step the workers' {@code srun}: its end before they have all joined is a failure
   * @throws NodeFailure when the step ends first, or after {@code timeout}
   */
  public static void await(ClusterNode master, int count, ProcessHandle step, Duration timeout) {
    IMap<String, String> workers = master.hazelcast().getMap(Addresses.WORKERS_MAP);
    Set<String> seen = ConcurrentHashMap.newKeySet();
    CompletableFuture<Void> all = new CompletableFuture<>();
    UUID listener = workers.addEntryListener(new Counter(seen, count, all), false);
    try {
      seen.addAll(workers.keySet());
      if (seen.size() >= count) {
        all.complete(null);
      }
      step.onExit().thenRun(() -> all.completeExceptionally(new NodeFailure("the workers' step (srun) ended before "
          + count + " workers had joined (" + seen.size() + " did): see its lines above")));
      all.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new NodeFailure("only " + seen.size() + " of " + count + " workers joined within " + timeout.toSeconds()
          + " s: see the workers' lines above");
    } catch (ExecutionException e) {
      throw e.getCause() instanceof NodeFailure f ? f : new NodeFailure("waiting for the workers failed: " + e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NodeFailure("interrupted while waiting for the workers");
    } finally {
      workers.removeEntryListener(listener);
    }
  }

  /** Keeps the set of worker ids from the map's events; completes {@code all} at {@code count}. */
  private record Counter(Set<String> seen, int count, CompletableFuture<Void> all)
      implements EntryAddedListener<String, String>, EntryRemovedListener<String, String> {

    @Override
    public void entryAdded(EntryEvent<String, String> event) {
      seen.add(event.getKey());
      if (seen.size() >= count) {
        all.complete(null);
      }
    }

    @Override
    public void entryRemoved(EntryEvent<String, String> event) {
      seen.remove(event.getKey());
    }
  }
}
