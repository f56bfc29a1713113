package org.parl.bench;

/** The actor {@code parl bench} creates: trivial methods, so that only parl's costs are measured. */
public class BenchActorImpl implements BenchActor {

  private int total;

  public BenchActorImpl() {}

  @Override
  public void noop() {}

  @Override
  public int add(int x) {
    total += x;
    return total;
  }

  @Override
  public float[] echo(float[] data) {
    return data;
  }

  @Override
  public long pid() {
    return ProcessHandle.current().pid();
  }
}
