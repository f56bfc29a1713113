package org.parl.cli;

import org.parl.AuthenticationException;
import org.parl.node.NodeFailure;
import picocli.CommandLine;

/** Entry point of {@code bin/parl}: exit 0 on success, 1 on a runtime failure, 2 on wrong usage. */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    // Vert.x threads are not daemons: leaving main without exiting would keep the JVM alive.
    System.exit(run(args));
  }

  static int run(String... args) {
    CommandLine cli = new CommandLine(new ParlCommand());
    cli.setParameterExceptionHandler((e, a) -> {
      CommandLine cmd = e.getCommandLine();
      cmd.getErr().println(cmd.getCommandName() + ": " + e.getMessage()
          + " (see '" + cmd.getCommandSpec().qualifiedName() + " --help')");
      return CommandLine.ExitCode.USAGE;
    });
    cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
      if (e instanceof CommandLine.ParameterException pe) {
        return cli.getParameterExceptionHandler().handleParseException(pe, args);
      }
      if (e instanceof NodeFailure || e instanceof AuthenticationException) {
        cmd.getErr().println("parl: " + e.getMessage());
      } else {
        cmd.getErr().println("parl: unexpected failure: " + e);
        e.printStackTrace(cmd.getErr());
      }
      return CommandLine.ExitCode.SOFTWARE;
    });
    return cli.execute(args);
  }
}
