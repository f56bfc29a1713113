package org.parl.cli;

import java.nio.file.Path;
import org.parl.internal.security.ClusterToken;
import org.parl.internal.security.PrivatePaths;
import org.parl.node.ParlHome;
import picocli.CommandLine.Option;

/** {@code --token-file}: where the cluster token is, ahead of the usual places (docs/contract.md §9). */
public final class TokenOption {

  @Option(names = "--token-file", paramLabel = "FILE",
      description = "File holding the cluster token (mode 600). Without it: $PARL_TOKEN (the value), the file named by "
          + "$PARL_TOKEN_FILE, then $PARL_HOME/token (~/.parl/token), which the master creates when none is found.")
  Path file;

  /** The token as docs/contract.md §9 finds it; throws {@code AuthenticationException} naming where it looked. */
  public ClusterToken find() {
    secureHome();
    return ClusterToken.find(file);
  }

  /** What a master uses: the token found, or a new {@code $PARL_HOME/token}, said on standard output. */
  public ClusterToken findOrCreate() {
    secureHome();
    return ClusterToken.findOrCreate(file, System.out::println);
  }

  /**
   * An existing {@code PARL_HOME} that other users may enter (a {@code mkdir ~/.parl} with the
   * usual umask makes it 0755) is set to 0700 when it is this user's, and said once on standard
   * output; one of another user is only warned about. New ones are created 0700.
   */
  static void secureHome() {
    PrivatePaths.tighten(ParlHome.root()).ifPresent(System.out::println);
  }
}
