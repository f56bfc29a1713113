package org.parl;

/**
 * Where the bundles of a {@link PlacementGroup} go, as in Ray: packed onto few workers, spread over many,
 * or strictly one or the other. The strict strategies wait (or fail) rather than bend; the others
 * prefer their shape and take any placement that holds every bundle.
 */
public enum PlacementStrategy {
  /** As few workers as possible: each bundle goes to a worker already used by the group when one holds it. */
  PACK,
  /** As many workers as possible: each bundle goes to a worker the group does not use yet when one holds it. */
  SPREAD,
  /** Every bundle on one worker, or the group waits. */
  STRICT_PACK,
  /** Every bundle on a worker of its own, or the group waits. */
  STRICT_SPREAD
}
