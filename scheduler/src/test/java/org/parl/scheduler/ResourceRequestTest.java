package org.parl.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ResourceRequestTest {

  @Test
  void aRequestReadsAsItselfAndAsWhatItWaitsFor() {
    ResourceRequest whole = ResourceRequest.ofGpus(2);
    assertEquals("2 GPUs", whole.toString());
    assertEquals("2 vacant GPU(s)", whole.vacantWords());
    ResourceRequest share = new ResourceRequest(1, 0, 250, 512, "A100");
    assertEquals("0.25 of a GPU with 512 MiB of GPU memory (model A100) and 1 CPU", share.toString());
    assertEquals("0.25 of a vacant GPU with 512 MiB of GPU memory and model A100 and 1 vacant CPU(s)", share.vacantWords());
    ResourceRequest budget = new ResourceRequest(0, 0, 0, 4_096, null);
    assertEquals("a place on a GPU with 4096 MiB of GPU memory", budget.toString());
    assertEquals("room on a GPU with 4096 MiB of GPU memory", budget.vacantWords());
    ResourceRequest cpus = ResourceRequest.ofCpus(3);
    assertEquals("3 CPUs", cpus.toString());
    assertEquals("3 vacant CPU(s)", cpus.vacantWords());
  }
}
