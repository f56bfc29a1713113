package org.parl.cli;

import java.nio.file.Path;
import org.parl.monitor.MonitorCertificate;
import org.parl.node.NodeFailure;
import org.parl.tls.CertificateFiles;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --tls-cert} and {@code --tls-key}: the operator's own certificate for the monitor. */
public final class MonitorTlsOptions {

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(names = "--tls-cert", paramLabel = "FILE",
      description = "PEM certificate the monitor presents, followed by its chain (default: one the cluster's CA issues; "
          + "'bin/parl cert' writes that CA). Reloaded when the file changes.")
  Path certificate;

  @Option(names = "--tls-key", paramLabel = "FILE", description = "PEM private key (RSA or EC, unencrypted) of --tls-cert.")
  Path key;

  /**
   * The operator's certificate, read and checked now; null when none was given.
   *
   * @throws NodeFailure (exit 1) when a file is unreadable, the key does not match, or the certificate is not valid now
   */
  public MonitorCertificate read() {
    if (certificate == null && key == null) {
      return null;
    }
    if (certificate == null || key == null) {
      throw new ParameterException(spec.commandLine(), "--tls-cert and --tls-key go together: give both, or neither");
    }
    try {
      return MonitorCertificate.fromFiles(new CertificateFiles(certificate, key));
    } catch (CertificateFiles.BadCertificateException e) {
      throw new NodeFailure(e.getMessage());
    }
  }
}
