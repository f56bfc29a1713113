/**
 * The cluster's TLS identity, derived from its token so that nobody runs keytool or openssl: a
 * certificate authority every node computes alike ({@link org.parl.tls.ClusterAuthority},
 * {@link org.parl.tls.ClusterKeys}), the certificates it issues for the names and addresses a node
 * serves ({@link org.parl.tls.NodeCertificate}, {@link org.parl.tls.ServedNames}), an operator's
 * own certificate files ({@link org.parl.tls.CertificateFiles}), and the TLS versions and suites
 * parl accepts ({@link org.parl.tls.TlsPolicy}).
 */
package org.parl.tls;
