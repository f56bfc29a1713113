package org.parl.cli;

import java.util.List;
import java.util.concurrent.Callable;
import org.parl.node.NodeFailure;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code parl run [--class-path CP] MAIN [ARGS...]}: bin/parl starts the client program itself, before
 * any JVM of its own (it maps a class-data archive of the client library); this entry gives the
 * command its help and its place in the command table.
 */
@Command(name = "run", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Run a client program (class MAIN) on the client library's class path plus CP, starting faster "
        + "than plain java from a class-data archive made on this host's first run.")
public final class RunCommand implements Callable<Integer> {

  @Option(names = {"-cp", "-classpath", "--class-path"}, paramLabel = "CP", description = "The program's own class path.")
  String classPath;

  @Parameters(index = "0", paramLabel = "MAIN", description = "The program's main class.")
  String main;

  @Parameters(index = "1..*", paramLabel = "ARGS", description = "The program's arguments.")
  List<String> args;

  @Override
  public Integer call() {
    throw new NodeFailure("'parl run' is run by bin/parl: start it as 'bin/parl run " + main + " ...'");
  }
}
