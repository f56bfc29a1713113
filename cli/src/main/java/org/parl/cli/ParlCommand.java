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
        DrainCommand.class, DrainCommand.Undrain.class})
public final class ParlCommand implements Runnable {

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
        "name a command: master, worker, monitor, status, stop, slurm, cert, demo, bench or classpath");
  }
}
