package org.parl.monitor;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.parl.tls.CertificateFiles;
import org.parl.tls.Fingerprints;
import org.parl.tls.NodeCertificate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reloads the operator's certificate when its files change (a renewal), without a restart: the
 * file system tells a watcher thread (inotify on Linux), and once the files have been quiet for
 * {@value #SETTLE_MS} ms (a renewal writes two files) they are read again on a worker thread and,
 * when they changed and are sound, handed to the server. Files that do not check out leave the
 * server with the certificate it has, and say why.
 */
final class CertificateWatch implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(CertificateWatch.class);
  static final long SETTLE_MS = 300;

  private final Vertx vertx;
  private final Context context;
  private final CertificateFiles files;
  private final Function<NodeCertificate, Future<Boolean>> install;
  private final WatchService watcher;
  private final Set<Path> names;
  private NodeCertificate current;
  private long settle = -1;

  /**
   * @param context where the server runs, and this watch's timers and callbacks
   * @param current the certificate the server presents now
   * @param install gives the server a new certificate; true once it presents it
   */
  CertificateWatch(Context context, CertificateFiles files, NodeCertificate current,
      Function<NodeCertificate, Future<Boolean>> install) throws IOException {
    this.vertx = context.owner();
    this.context = context;
    this.files = files;
    this.current = current;
    this.install = install;
    this.names = new HashSet<>(List.of(files.certificate().getFileName(), files.key().getFileName()));
    this.watcher = FileSystems.getDefault().newWatchService();
    for (Path dir : new HashSet<>(List.of(parent(files.certificate()), parent(files.key())))) {
      dir.register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY,
          StandardWatchEventKinds.ENTRY_DELETE);
    }
    Thread t = new Thread(this::watch, "parl-certificate-watch");
    t.setDaemon(true);
    t.start();
  }

  private static Path parent(Path file) {
    Path dir = file.toAbsolutePath().getParent();
    return dir == null ? file.toAbsolutePath() : dir;
  }

  /** Waits for file events until closed; runs on its own thread. */
  private void watch() {
    try {
      while (true) {
        WatchKey key = watcher.take();
        boolean ours = false;
        for (WatchEvent<?> e : key.pollEvents()) {
          ours |= e.kind() == StandardWatchEventKinds.OVERFLOW || names.contains((Path) e.context()) || linked();
        }
        key.reset();
        if (ours) {
          context.runOnContext(v -> changed());
        }
      }
    } catch (ClosedWatchServiceException | InterruptedException e) {
      // closed with the monitor
    }
  }

  /** Whether a file is a link, whose target may change by events under other names (a directory swap). */
  private boolean linked() {
    return Files.isSymbolicLink(files.certificate()) || Files.isSymbolicLink(files.key());
  }

  private void changed() {
    vertx.cancelTimer(settle);
    settle = vertx.setTimer(SETTLE_MS, t -> reload());
  }

  /**
   * Reads the files again and hands them to the server if they changed: true once it presents
   * them, false when they had not changed; failed (and the server keeps what it has) when they do
   * not check out ({@link CertificateFiles#read}) or the server refused them. Call on the context.
   */
  Future<Boolean> reload() {
    return vertx.executeBlocking(() -> files.read(Instant.now()), false)
        .compose(read -> read.chain().equals(current.chain()) && read.key().equals(current.key())
            ? Future.succeededFuture(false)
            : install.apply(read).map(done -> {
              current = read;
              log.info("monitor certificate reloaded from {} (SHA-256 {})", files.certificate(),
                  Fingerprints.show(read.fingerprint()));
              return true;
            }))
        .onFailure(e -> log.warn("the monitor keeps its certificate: {}", e.getMessage()));
  }

  @Override
  public void close() {
    vertx.cancelTimer(settle);
    try {
      watcher.close();
    } catch (IOException e) {
      log.debug("closing the certificate watch: {}", e.getMessage());
    }
  }
}
