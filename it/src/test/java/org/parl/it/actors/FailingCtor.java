package org.parl.it.actors;

/** An actor whose constructor throws. */
public class FailingCtor implements Counter.Simple {

  public FailingCtor() {
    throw new IllegalArgumentException("constructor refuses");
  }

  @Override
  public int value() {
    return 0;
  }
}
