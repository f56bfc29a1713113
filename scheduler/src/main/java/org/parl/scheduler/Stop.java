package org.parl.scheduler;

/**
 * What stops a request on one worker, from the closest to fitting to the farthest; explanations list
 * groups of workers in this order.
 */
enum Stop {
  /** Nothing: it fits now. */
  FITS,
  /** Resources the worker has are held by running jobs. */
  BUSY,
  /** GPU memory: budgets already placed, or GPUs too small. */
  MEMORY,
  /** The worker, or the GPUs that could hold it, are drained or quarantined. */
  OUT_OF_SERVICE,
  /** No GPU of the model asked. */
  MODEL,
  /** The worker is too small, whatever its load. */
  CAPACITY
}
