package org.parl.cli;

import picocli.CommandLine.Command;

/** {@code bin/parl}: the command line of a parl cluster. */
@Command(
    name = "parl",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "A cluster of CPU and GPU workers that runs remote actors.",
    subcommands = {MasterCommand.class, WorkerCommand.class, MonitorCommand.class, StatusCommand.class, StopCommand.class,
        SlurmCommand.class, CertCommand.class, DemoCommand.class, BenchCommand.class, ClasspathCommand.class,
        DrainCommand.class, DrainCommand.Undrain.class, RunCommand.class, FakeGpusCommand.class})
public final class ParlCommand implements Runnable {

  @picocli.CommandLine.Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    // the list comes from the command table above, so that a new command cannot be left out of it
    throw new picocli.CommandLine.ParameterException(spec.commandLine(),
        "name a command: " + String.join(", ", spec.subcommands().keySet()));
  }
}
