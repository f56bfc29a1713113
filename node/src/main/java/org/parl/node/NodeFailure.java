package org.parl.node;

/** A runtime failure the user can act on: printed as one sentence, exit code 1, no stack trace. */
public final class NodeFailure extends RuntimeException {

  public NodeFailure(String sentence) {
    super(sentence, null, false, false);
  }
}
