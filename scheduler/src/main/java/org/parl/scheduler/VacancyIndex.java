package org.parl.scheduler;

import java.util.BitSet;
import java.util.function.Predicate;

/**
 * Workers grouped by how many units of one resource they have vacant, so that a best-fit search
 * starts at the smallest sufficient vacancy instead of scanning every worker.
 *
 * <p>Each vacancy has an intrusive doubly linked list (the nodes live in the workers), and a bit
 * set marks the non-empty vacancies: moving a worker is a few pointer writes, with no hashing and
 * no allocation, which keeps the cost flat from ten workers to tens of thousands. Lists keep
 * insertion order, which makes placement deterministic.
 */
final class VacancyIndex<W> {

  /** A worker's place in one index. */
  static final class Node<W> {
    final W owner;
    Node<W> prev;
    Node<W> next;
    int vacancy = -1;

    Node(W owner) {
      this.owner = owner;
    }
  }

  private Node<W>[] heads = newArray(16);
  private Node<W>[] tails = newArray(16);
  private final BitSet nonEmpty = new BitSet();
  private int size;

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static <W> Node<W>[] newArray(int n) {
    return (Node<W>[]) new Node[n];
  }

  void add(Node<W> n, int vacancy) {
    if (n.vacancy >= 0) {
      throw new IllegalStateException(n.owner + " is already indexed");
    }
    if (vacancy >= heads.length) {
      int len = Math.max(vacancy + 1, heads.length * 2);
      heads = java.util.Arrays.copyOf(heads, len);
      tails = java.util.Arrays.copyOf(tails, len);
    }
    n.vacancy = vacancy;
    n.next = null;
    n.prev = tails[vacancy];
    if (n.prev == null) {
      heads[vacancy] = n;
      nonEmpty.set(vacancy);
    } else {
      n.prev.next = n;
    }
    tails[vacancy] = n;
    size++;
  }

  void remove(Node<W> n) {
    int v = n.vacancy;
    if (v < 0) {
      throw new IllegalStateException(n.owner + " is not indexed");
    }
    if (n.prev == null) {
      heads[v] = n.next;
    } else {
      n.prev.next = n.next;
    }
    if (n.next == null) {
      tails[v] = n.prev;
    } else {
      n.next.prev = n.prev;
    }
    if (heads[v] == null) {
      nonEmpty.clear(v);
    }
    n.prev = null;
    n.next = null;
    n.vacancy = -1;
    size--;
  }

  void move(Node<W> n, int to) {
    if (n.vacancy != to) {
      remove(n);
      add(n, to);
    }
  }

  /** The first worker, by smallest vacancy of at least {@code need}, that {@code fits}; or null. */
  W first(int need, Predicate<W> fits) {
    for (int v = nonEmpty.nextSetBit(need); v >= 0; v = nonEmpty.nextSetBit(v + 1)) {
      for (Node<W> n = heads[v]; n != null; n = n.next) {
        if (fits.test(n.owner)) {
          return n.owner;
        }
      }
    }
    return null;
  }

  /**
   * The first worker, by largest vacancy (at most {@code maxVacancy}), that {@code fits}; or null. Used to
   * pick the worker closest to holding a request that fits nowhere yet.
   */
  W last(int maxVacancy, Predicate<W> fits) {
    for (int v = nonEmpty.previousSetBit(Math.min(maxVacancy, heads.length - 1)); v >= 0; v = nonEmpty.previousSetBit(v - 1)) {
      for (Node<W> n = heads[v]; n != null; n = n.next) {
        if (fits.test(n.owner)) {
          return n.owner;
        }
      }
    }
    return null;
  }

  /** Whether some worker is indexed at a vacancy of at least {@code vacancy}. */
  boolean anyAtLeast(int vacancy) {
    return nonEmpty.nextSetBit(vacancy) >= 0;
  }

  /** Whether the node is indexed at exactly {@code vacancy} ({@code -1}: not indexed). */
  boolean contains(Node<W> n, int vacancy) {
    return n.vacancy == vacancy;
  }

  /**
   * Walks every list: links consistent, each node filed under its own vacancy, the bit set exact.
   *
   * @return the number of indexed workers
   */
  int verify() {
    int count = 0;
    for (int v = 0; v < heads.length; v++) {
      if ((heads[v] != null) != nonEmpty.get(v)) {
        throw new IllegalStateException("vacancy " + v + " is marked " + (nonEmpty.get(v) ? "non-empty" : "empty") + " wrongly");
      }
      Node<W> prev = null;
      for (Node<W> n = heads[v]; n != null; n = n.next) {
        if (n.prev != prev || n.vacancy != v) {
          throw new IllegalStateException(n.owner + " is linked under vacancy " + v + " but records " + n.vacancy);
        }
        prev = n;
        count++;
      }
      if (tails[v] != prev) {
        throw new IllegalStateException("the list of vacancy " + v + " has a wrong tail");
      }
    }
    if (count != size) {
      throw new IllegalStateException("index holds " + count + " workers but counts " + size);
    }
    return count;
  }

  int size() {
    return size;
  }
}
