package org.parl.monitor;

import java.time.Instant;
import java.util.Optional;
import org.parl.tls.CertificateFiles;
import org.parl.tls.ClusterAuthority;
import org.parl.tls.Fingerprints;
import org.parl.tls.NodeCertificate;

/**
 * The certificate the monitor presents: by default one the cluster's CA issued for the addresses it
 * serves; or one the operator brought ({@code --tls-cert}, {@code --tls-key}), which the monitor
 * reloads when its files change (see {@link CertificateWatch}).
 */
public final class MonitorCertificate {

  private final NodeCertificate first;
  private final CertificateFiles files;
  private final String line;

  private MonitorCertificate(NodeCertificate first, CertificateFiles files, String line) {
    this.first = first;
    this.files = files;
    this.line = line;
  }

  /** A certificate the cluster's CA issued ({@link ClusterAuthority#issue}). */
  public static MonitorCertificate issued(NodeCertificate certificate, ClusterAuthority authority) {
    return new MonitorCertificate(certificate, null, "issued by the cluster CA with SHA-256 "
        + Fingerprints.show(authority.fingerprint()) + " ('bin/parl cert' writes it for curl --cacert, Prometheus and browsers)");
  }

  /**
   * The operator's certificate, read and checked now.
   *
   * @throws CertificateFiles.BadCertificateException when a file is unreadable, the key does not
   *     match, or the certificate is not valid now
   */
  public static MonitorCertificate fromFiles(CertificateFiles files) throws CertificateFiles.BadCertificateException {
    NodeCertificate read = files.read(Instant.now());
    return new MonitorCertificate(read, files, "from " + files.certificate() + " with SHA-256 "
        + Fingerprints.show(read.fingerprint()) + " (reloaded when the files change)");
  }

  /** What the monitor presents when it starts. */
  NodeCertificate first() {
    return first;
  }

  /** The operator's files, when the certificate came from them. */
  Optional<CertificateFiles> files() {
    return Optional.ofNullable(files);
  }

  /** What the start output says about the certificate: who issued it and its fingerprint. */
  public String describe() {
    return line;
  }
}
