package org.parl.scheduler;

import org.parl.internal.resources.GpuAmount;
import org.parl.internal.resources.ResourceRequest;

/**
 * The one thing that stops a request on one worker now, in words that do not name the worker so that
 * alike workers group under one line.
 *
 * @param kind the class of the constraint
 * @param lasting true when the worker could not hold the request even with everything vacant and in service
 * @param text what stops it, e.g. "1 of 2 GPUs vacant"
 */
record Constraint(Stop kind, boolean lasting, String text) {

  static final Constraint FITS = new Constraint(Stop.FITS, false, "fits now");

  /**
   * The first constraint that stops {@code r} on {@code w}: what the worker lacks for good, then its
   * service state, then its load.
   */
  static Constraint of(PoolWorker w, ResourceRequest r) {
    Constraint c = lasting(w, r);
    if (c != null) {
      return c;
    }
    if (w.drained) {
      return new Constraint(Stop.OUT_OF_SERVICE, false, "drained");
    }
    if (r.gpus() > 0) {
      c = wholeGpus(w, r);
    } else if (r.wantsGpu()) {
      c = share(w, r);
    }
    if (c != null) {
      return c;
    }
    if (w.cpusVacant() < r.cpus()) {
      return new Constraint(Stop.BUSY, false, w.cpusVacant() + " of " + Texts.count(w.cpusTotal, "CPU") + " vacant");
    }
    return FITS;
  }

  private static Constraint lasting(PoolWorker w, ResourceRequest r) {
    if (r.wantsGpu()) {
      if (w.gpuTotal() == 0) {
        return new Constraint(Stop.CAPACITY, true, "lends no GPUs");
      }
      boolean model = false;
      long largest = 0;
      for (int s = 0; s < w.gpuTotal(); s++) {
        if (w.gpus[s].matches(r.gpuModel())) {
          model = true;
          largest = Math.max(largest, w.gpus[s].memoryMb());
        }
      }
      if (!model) {
        return new Constraint(Stop.MODEL, true, "no GPU of model " + r.gpuModel());
      }
      if (r.gpuMemoryMb() > largest) {
        return new Constraint(Stop.MEMORY, true, "its largest GPU" + (r.gpuModel() == null ? "" : " of model " + r.gpuModel())
            + " has " + largest + " MiB of memory, " + r.gpuMemoryMb() + " MiB asked");
      }
      int capable = w.capableCount(r);
      if (capable < r.gpus()) {
        return new Constraint(Stop.CAPACITY, true, "lends " + Texts.count(capable, Texts.gpuKind(r)) + ", " + r.gpus() + " asked");
      }
    }
    if (w.cpusTotal < r.cpus()) {
      return new Constraint(Stop.CAPACITY, true, w.cpusTotal == 0 ? "lends no CPUs"
          : "lends " + Texts.count(w.cpusTotal, "CPU") + ", " + r.cpus() + " asked");
    }
    return null;
  }

  private static Constraint wholeGpus(PoolWorker w, ResourceRequest r) {
    int capable = 0;
    int vacant = 0;
    int idle = 0;
    for (int s = 0; s < w.gpuTotal(); s++) {
      if (w.capable(s, r)) {
        capable++;
        if (w.untouched(s)) {
          idle++;
          if (w.inService(s)) {
            vacant++;
          }
        }
      }
    }
    if (vacant >= r.gpus()) {
      return null;
    }
    String text = vacant + " of " + Texts.count(capable, Texts.gpuKind(r)) + " vacant";
    if (idle >= r.gpus()) {
      return new Constraint(Stop.OUT_OF_SERVICE, false, text + ", " + (idle - vacant) + " drained or quarantined");
    }
    return new Constraint(Stop.BUSY, false, text);
  }

  private static Constraint share(PoolWorker w, ResourceRequest r) {
    boolean inService = false;
    int freeUnits = -1;
    long freeMemory = -1;
    for (int s = 0; s < w.gpuTotal(); s++) {
      if (!w.capable(s, r) || !w.inService(s)) {
        continue;
      }
      inService = true;
      if (w.shareFits(s, r)) {
        return null;
      }
      if (w.wholeHeld(s)) {
        continue;
      }
      int free = PoolWorker.UNITS - w.units(s);
      freeUnits = Math.max(freeUnits, free);
      if (free >= r.gpuShare()) {
        freeMemory = Math.max(freeMemory, w.memoryFree(s));
      }
    }
    if (!inService) {
      return new Constraint(Stop.OUT_OF_SERVICE, false, "its " + Texts.plural(2, Texts.gpuKind(r)) + " are drained or quarantined");
    }
    if (freeMemory >= 0) {
      return new Constraint(Stop.MEMORY, false, freeMemory + " MiB of GPU memory free on its best GPU, " + r.gpuMemoryMb()
          + " MiB asked");
    }
    if (freeUnits < 0) {
      return new Constraint(Stop.BUSY, false, "its " + Texts.plural(2, Texts.gpuKind(r)) + " are held whole");
    }
    if (freeUnits == 0) {
      return new Constraint(Stop.BUSY, false, "no share of its " + Texts.plural(2, Texts.gpuKind(r)) + " free, "
          + GpuAmount.shareText(r.gpuShare()) + " asked");
    }
    return new Constraint(Stop.BUSY, false, GpuAmount.shareText(freeUnits) + " of a GPU free at most, "
        + GpuAmount.shareText(r.gpuShare()) + " asked");
  }
}
