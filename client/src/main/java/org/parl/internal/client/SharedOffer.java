package org.parl.internal.client;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.parl.internal.wire.SharedLink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether a new data connection offers its job a shared area for large arrays, and of what size.
 * Only a job on this host can map it: its address must be a loopback address or one of this host's
 * interfaces (a job elsewhere, or in another network namespace, never gets an offer). A job with a
 * memory limit counts the area's touched pages as its own (they are resident in it), so the area
 * takes at most 1/{@value SharedLink#LIMIT_SHARE} of that limit, or is not offered.
 *
 * <p>One per client. After each offer the next area is made ahead ({@link #refill}), off the
 * create's path: making one (a directory, a file, and the sweep of areas dead clients left) is work
 * the next create would otherwise wait for. The spare is removed when the client closes.
 */
final class SharedOffer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(SharedOffer.class);

  /** Each job host's answer, found once: finding it walks this host's interfaces, on every create otherwise. */
  private static final Map<String, Boolean> SAME_HOST = new ConcurrentHashMap<>();

  private final boolean enabled;
  private final Path parent;
  private final AtomicReference<SharedLink> spare = new AtomicReference<>();
  /** The room per direction of the last offer: the size the spare is made with. 0 before the first. */
  private volatile int lastHalf;
  private volatile boolean closed;

  /** @param enabled whether this client offers shared memory at all */
  SharedOffer(boolean enabled, Path parent) {
    this.enabled = enabled;
    this.parent = parent;
  }

  /**
   * An area to offer the job at {@code host}, or null when none is offered (another host, turned
   * off, too small a memory limit, or the area could not be made: then one debug line says why).
   * The caller owns it.
   */
  SharedLink make(String host, int maxMemoryMb) {
    int half = halfBytes(maxMemoryMb);
    if (!enabled || half == 0 || !sameHost(host)) {
      return null;
    }
    lastHalf = half;
    SharedLink ready = spare.getAndSet(null);
    if (ready != null && ready.size() == SharedLink.areaBytes(half)) {
      return ready;
    }
    if (ready != null) {
      ready.close();
    }
    return create(host, half);
  }

  /** Makes the next area ahead, the size of the last offer, unless one is ready; returns at once if none was offered yet. */
  void refill() {
    int half = lastHalf;
    if (half == 0 || closed || spare.get() != null) {
      return;
    }
    SharedLink made = create("this host", half);
    if (made == null) {
      return;
    }
    if (!spare.compareAndSet(null, made)) {
      made.close();
    } else if (closed) {
      close(); // the client closed meanwhile, after looking for a spare
    }
  }

  /** Removes the spare area. */
  @Override
  public void close() {
    closed = true;
    SharedLink s = spare.getAndSet(null);
    if (s != null) {
      s.close();
    }
  }

  private SharedLink create(String host, int half) {
    try {
      return SharedLink.create(parent, half);
    } catch (IOException | RuntimeException e) {
      LOG.debug("no shared memory with the job at {}: {}", host, e.toString());
      return null;
    }
  }

  /** Room per direction for a job with this memory limit (0: none), 0 when that is too little to be worth it. */
  static int halfBytes(int maxMemoryMb) {
    if (maxMemoryMb == 0) {
      return SharedLink.DEFAULT_HALF;
    }
    long half = SharedLink.halfBytes((int) Math.min(Integer.MAX_VALUE, ((long) maxMemoryMb << 20) / SharedLink.LIMIT_SHARE));
    return half < SharedLink.MIN_HALF ? 0 : (int) Math.min(half, SharedLink.DEFAULT_HALF);
  }

  /** Whether {@code host} names this host: a loopback address or an address of one of its interfaces. */
  static boolean sameHost(String host) {
    return SAME_HOST.computeIfAbsent(host, SharedOffer::resolvesHere);
  }

  private static boolean resolvesHere(String host) {
    try {
      InetAddress a = InetAddress.getByName(host);
      return a.isLoopbackAddress() || NetworkInterface.getByInetAddress(a) != null;
    } catch (UnknownHostException | SocketException e) {
      return false;
    }
  }
}
