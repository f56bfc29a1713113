package org.parl.internal.client;

import io.vertx.core.Context;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.parl.Bundle;
import org.parl.InvalidRequestException;
import org.parl.PlacementGroup;
import org.parl.PlacementStrategy;
import org.parl.internal.resources.GroupRequest;
import org.parl.internal.resources.ResourceRequest;
import org.parl.internal.wire.gateway.GatewayReply.BundleHeld;

/** A placement group the master holds for this client: what it asked, and where each bundle is held. */
final class PlacementGroupImpl implements PlacementGroup {

  private final ParlClientImpl owner;
  private final String id;
  private final PlacementStrategy strategy;
  private final List<Bundle> bundles;
  private final GroupRequest request;
  private final List<BundleHeld> held;

  PlacementGroupImpl(ParlClientImpl owner, String id, PlacementStrategy strategy, List<Bundle> bundles, GroupRequest request,
      List<BundleHeld> held) {
    this.owner = owner;
    this.id = id;
    this.strategy = strategy;
    this.bundles = bundles;
    this.request = request;
    this.held = held;
  }

  /**
   * The group as the pool reads it.
   *
   * @throws InvalidRequestException when there is no strategy, no bundle or too many, or a bundle is malformed
   */
  static GroupRequest request(PlacementStrategy strategy, List<Bundle> bundles) {
    if (bundles == null) {
      throw new InvalidRequestException("a placement group needs at least one bundle");
    }
    List<ResourceRequest> asked = new ArrayList<>(bundles.size());
    for (int i = 0; i < bundles.size(); i++) {
      Bundle b = Objects.requireNonNull(bundles.get(i), "bundle " + i);
      try {
        asked.add(ResourceRequest.of(b.cpus(), b.gpus(), b.gpuMemoryMb(), b.gpuModel(), 0));
      } catch (IllegalArgumentException e) {
        throw new InvalidRequestException("bundle " + i + ": " + e.getMessage());
      }
    }
    try {
      return new GroupRequest(asked, strategy);
    } catch (IllegalArgumentException e) {
      throw new InvalidRequestException(e.getMessage());
    }
  }

  ParlClientImpl owner() {
    return owner;
  }

  /** What bundle {@code i} asks of the pool; {@link InvalidRequestException} for an index out of range. */
  ResourceRequest request(int i) {
    return request.bundles().get(check(i));
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public PlacementStrategy strategy() {
    return strategy;
  }

  @Override
  public int size() {
    return bundles.size();
  }

  @Override
  public Bundle bundle(int i) {
    return bundles.get(check(i));
  }

  @Override
  public String workerOf(int i) {
    return held.get(check(i)).workerId();
  }

  @Override
  public List<Integer> gpusOf(int i) {
    return held.get(check(i)).gpus();
  }

  private int check(int i) {
    if (i < 0 || i >= bundles.size()) {
      throw new InvalidRequestException("placement group " + id + " has bundles 0 to " + (bundles.size() - 1) + ", not " + i);
    }
    return i;
  }

  @Override
  public Future<Void> removeAsync() {
    return owner.removeGroup(id);
  }

  @Override
  public void remove() {
    if (Context.isOnEventLoopThread()) {
      throw new IllegalStateException("remove() blocks and was called on an event loop: use removeAsync() there");
    }
    removeAsync().await();
  }

  @Override
  public void close() {
    remove();
  }

  @Override
  public String toString() {
    return "PlacementGroup[" + id + ", " + request + "]";
  }
}
