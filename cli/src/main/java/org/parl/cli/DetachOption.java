package org.parl.cli;

import picocli.CommandLine.Option;

/** {@code --detach}: run the node in the background, with a pid file and a log under PARL_HOME. */
public final class DetachOption {

  @Option(names = "--detach", description = "Run in the background; 'parl stop' stops it.")
  boolean detach;
}
