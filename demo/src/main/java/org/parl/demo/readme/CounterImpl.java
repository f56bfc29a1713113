package org.parl.demo.readme;

import org.parl.RemoteClass;

// readme:start
@RemoteClass(cpus = 1)                       // on a GPU cluster: @RemoteClass(gpus = 1, maxMemoryMb = 512),
public class CounterImpl implements Counter {  // or a quarter of one: @RemoteClass(gpus = 0.25, gpuMemoryMb = 4096)
  private int count;
  public CounterImpl() {}
  public CounterImpl(int start) { count = start; }
  public int add(int x) { count += x; return count; }
  public int value() { return count; }
}
// readme:end
