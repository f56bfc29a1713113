package org.parl.cli;

/** A runtime failure the user can act on: printed as one sentence, exit code 1, no stack trace. */
public final class CliFailure extends RuntimeException {

  public CliFailure(String sentence) {
    super(sentence, null, false, false);
  }
}
