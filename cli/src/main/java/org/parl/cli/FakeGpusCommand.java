package org.parl.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.parl.demo.FakeNvidiaSmi;
import org.parl.node.ParlHome;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code parl fake-gpus N}: writes the fake {@code nvidia-smi} the demo and the tests use, listing N
 * GPUs, so that GPU actors can be tried on a machine without any:
 * {@code bin/parl master --gpu-cluster --nvidia-smi "$(bin/parl fake-gpus 2)"}. The script's path
 * is the one line on standard output; how to use it goes to standard error.
 */
@Command(name = "fake-gpus", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Write a fake nvidia-smi listing N GPUs, to try GPU actors on a machine without any, and print its "
        + "path (use it with --nvidia-smi). Only the GPUs are fake: jobs, CUDA_VISIBLE_DEVICES and the pool are real.")
public final class FakeGpusCommand implements Callable<Integer> {

  /** More would not be a laptop's trial, and the script lists them one by one. */
  static final int MAX_GPUS = 64;

  @Spec
  CommandSpec spec;

  @Parameters(index = "0", paramLabel = "N", description = "How many fake GPUs, 1 to " + MAX_GPUS + ".")
  int count;

  @Option(names = "--dir", paramLabel = "DIR",
      description = "Folder to write it in, as fake-gpus-N/ (default: $" + ParlHome.ENV + ", ~/.parl). Its GPUs' UUIDs "
          + "come from that folder: two folders are two hosts.")
  Path dir;

  @Override
  public Integer call() throws Exception {
    if (count < 1 || count > MAX_GPUS) {
      throw new ParameterException(spec.commandLine(), "N is how many fake GPUs, 1 to " + MAX_GPUS + ", not " + count);
    }
    Path script = FakeNvidiaSmi.write(dir == null ? ParlHome.root() : dir, count).toAbsolutePath();
    System.out.println(script);
    System.err.println("a fake nvidia-smi listing " + count + " GPU(s); lend them with: bin/parl master --gpu-cluster "
        + "--nvidia-smi " + script);
    return 0;
  }
}
