package org.parl.cli;

import java.net.InetAddress;
import java.net.UnknownHostException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --host}: the address other nodes reach this one at. */
public final class HostOption {

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(names = "--host", defaultValue = "127.0.0.1", paramLabel = "IP",
      description = "Address other nodes reach this one at; it binds only there (default: ${DEFAULT-VALUE}).")
  String host;

  /** The validated address. */
  public String get() {
    if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
      throw new ParameterException(spec.commandLine(),
          "--host must be an address other nodes can reach, such as 127.0.0.1 or this host's IP, not " + host);
    }
    try {
      InetAddress.getByName(host);
    } catch (UnknownHostException e) {
      throw new ParameterException(spec.commandLine(), "--host " + host + " is not an address of this host");
    }
    return host;
  }
}
