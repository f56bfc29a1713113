package org.parl.cli;

import java.nio.file.Path;
import org.parl.security.ClusterToken;
import picocli.CommandLine.Option;

/** {@code --token-file}: where the cluster token is, ahead of the usual places (SPEC §9). */
public final class TokenOption {

  @Option(names = "--token-file", paramLabel = "FILE",
      description = "File holding the cluster token (mode 600). Without it: $PARL_TOKEN (the value), the file named by "
          + "$PARL_TOKEN_FILE, then $PARL_HOME/token (~/.parl/token), which the master creates when none is found.")
  Path file;

  /** The token as SPEC §9 finds it; throws {@code AuthenticationException} naming where it looked. */
  public ClusterToken find() {
    return ClusterToken.find(file);
  }

  /** What a master uses: the token found, or a new {@code $PARL_HOME/token}, said on standard output. */
  public ClusterToken findOrCreate() {
    return ClusterToken.findOrCreate(file, System.out::println);
  }
}
