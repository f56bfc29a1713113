package org.parl.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.parl.bench.BenchResult;
import org.parl.bench.BenchRun;
import org.parl.bench.ScalePlan;
import org.parl.node.NodeFailure;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code parl bench}: the end-to-end benchmark, against a running CPU cluster or clusters of its own. */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {"Measure calls, array transfers, actor creation and Parl.connect end to end, next to a plain-Java "
            + "TCP baseline measured in the same run, and compare them with PARL's figures and parl's targets.",
        "Without --address it starts its own CPU cluster, and where it can make network namespaces (root, iproute2) "
            + "measures the data path across two of them too; GPU actor creation always runs on a GPU cluster it starts "
            + "with fake GPUs. Prints a table, then one JSON line."})
public final class BenchCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--address", paramLabel = "HOST:PORT",
      description = "A running CPU cluster to measure (default: start one with 4 CPUs).")
  String address;

  @Option(names = "--quick", description = "Fewer iterations: about 3 minutes on 2 cores.")
  boolean quick;

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the JSON result to FILE.")
  Path json;

  @Option(names = "--scale", description = "Instead: allocations per second through the gateway and the JobCenter at "
      + "10, 100 and 1 000 simulated workers (whose jobs are not processes), on a cluster of its own.")
  boolean scale;

  @Option(names = "--cross-host", description = "Instead: only the rows across hosts (calls and 1 MB / 8 MB array echoes "
      + "from a client on another host than its actor's job, next to plain TCP between the same hosts), on two network "
      + "namespaces of its own; needs root and iproute2 (the full run includes them where it can).")
  boolean crossHost;

  @Option(names = "--scale-workers", split = ",", paramLabel = "N",
      description = "With --scale: the worker counts to measure at, increasing (default: 10,100,1000).")
  List<Integer> scaleWorkers;

  @Option(names = "--scale-connections", paramLabel = "N", defaultValue = "0",
      description = "With --scale: gateway connections allocating at once (default: 16).")
  int scaleConnections;

  @Option(names = "--scale-allocations", paramLabel = "N", defaultValue = "0",
      description = "With --scale: exactly N allocations at each worker count instead of a timed run.")
  int scaleAllocations;

  @Override
  public Integer call() {
    if (address != null && !address.matches("[^:\\s]+:\\d{1,5}")) {
      throw new ParameterException(spec.commandLine(), "--address must look like HOST:PORT, not '" + address + "'");
    }
    if (!scale && (scaleWorkers != null || scaleConnections != 0 || scaleAllocations != 0)) {
      throw new ParameterException(spec.commandLine(), "--scale-workers, --scale-connections and --scale-allocations "
          + "go with --scale");
    }
    if (scale && address != null) {
      throw new ParameterException(spec.commandLine(), "--scale runs on a cluster of its own: leave out --address");
    }
    if (crossHost && (scale || address != null)) {
      throw new ParameterException(spec.commandLine(), "--cross-host runs on clusters of its own: leave out --scale and --address");
    }
    if (scaleConnections < 0 || scaleAllocations < 0) {
      throw new ParameterException(spec.commandLine(), "--scale-connections and --scale-allocations cannot be negative");
    }
    BenchResult result;
    try {
      ScalePlan plan = scale ? BenchRun.scalePlan(scaleWorkers, scaleConnections, scaleAllocations) : null;
      result = BenchRun.run(new BenchRun.Options(address, quick, plan, crossHost));
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NodeFailure("the benchmark was interrupted");
    } catch (Exception e) {
      throw new NodeFailure("the benchmark failed: " + e.getMessage());
    } catch (LinkageError e) {
      throw new NodeFailure("the benchmark failed: a class could not be loaded (" + e.getMessage()
          + "); was the parl jar rebuilt while it ran?");
    }
    System.out.println();
    result.printTable(System.out);
    String line = result.json().encode();
    if (json != null) {
      try {
        Files.writeString(json, result.json().encodePrettily() + System.lineSeparator());
      } catch (IOException e) {
        throw new NodeFailure("cannot write the JSON result to " + json + ": " + e.getMessage());
      }
    }
    System.out.println(line);
    return 0;
  }
}
