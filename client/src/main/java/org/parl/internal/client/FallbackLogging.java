package org.parl.internal.client;

import java.io.PrintStream;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The client's logging when the user's program has no SLF4J binding: its warnings and errors, one line each
 * on standard error, instead of SLF4J's three-line "No SLF4J providers were found" notice followed by
 * silence. The client brings no binding of its own: this provider is not listed in
 * {@code META-INF/services} (SLF4J would then find two providers beside a user's binding, warn, and pick
 * either); it is named through SLF4J's {@code slf4j.provider} system property, and only when no
 * provider is on the class path and the user named none. A program with a binding (logback, log4j,
 * slf4j-simple, slf4j-nop) logs through it as before.
 */
public final class FallbackLogging implements SLF4JServiceProvider {

  private static final String PROVIDER = "slf4j.provider";
  /** SLF4J reports the provider that {@value #PROVIDER} names at its INFO level; its warnings and errors still show. */
  private static final String VERBOSITY = "slf4j.internal.verbosity";

  private final ILoggerFactory loggers = new Loggers();
  private final IMarkerFactory markers = new BasicMarkerFactory();
  private final MDCAdapter mdc = new NOPMDCAdapter();

  /** SLF4J instantiates this provider by its name; the client never does. */
  public FallbackLogging() {}

  /**
   * Names this provider to SLF4J when nothing else would bind: called before the client first logs or
   * starts Vert.x (whose logging asks SLF4J for its factory). A program that already initialised SLF4J
   * is not affected.
   */
  static void installIfNoBinding() {
    if (System.getProperty(PROVIDER) != null) {
      return;
    }
    ClassLoader loader = LoggerFactory.class.getClassLoader(); // the loader SLF4J searches; LoggerFactory is not initialised by this
    try {
      if (ServiceLoader.load(SLF4JServiceProvider.class, loader).iterator().hasNext()) {
        return;
      }
    } catch (ServiceConfigurationError e) {
      return; // a broken binding is the user's to see, as SLF4J reports it
    }
    if (System.getProperty(VERBOSITY) == null) {
      System.setProperty(VERBOSITY, "WARN");
    }
    System.setProperty(PROVIDER, FallbackLogging.class.getName());
  }

  @Override
  public ILoggerFactory getLoggerFactory() {
    return loggers;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markers;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdc;
  }

  @Override
  public String getRequestedApiVersion() {
    return "2.0.99";
  }

  @Override
  public void initialize() {
    // nothing to set up
  }

  private static final class Loggers implements ILoggerFactory {
    private final ConcurrentMap<String, Logger> byName = new ConcurrentHashMap<>();

    @Override
    public Logger getLogger(String name) {
      return byName.computeIfAbsent(name, StderrLogger::new);
    }
  }

  /** WARN and ERROR, as {@code parl: WARN ActorConnection - the message}; a cause is named on the same line. */
  private static final class StderrLogger extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;

    StderrLogger(String name) {
      this.name = name;
    }

    @Override
    public boolean isTraceEnabled() {
      return false;
    }

    @Override
    public boolean isDebugEnabled() {
      return false;
    }

    @Override
    public boolean isInfoEnabled() {
      return false;
    }

    @Override
    public boolean isWarnEnabled() {
      return true;
    }

    @Override
    public boolean isErrorEnabled() {
      return true;
    }

    @Override
    protected String getFullyQualifiedCallerName() {
      return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern, Object[] arguments,
        Throwable throwable) {
      String message = MessageFormatter.basicArrayFormat(messagePattern, arguments);
      String shortName = name.substring(name.lastIndexOf('.') + 1);
      PrintStream err = System.err;
      err.println("parl: " + level + " " + shortName + " - " + message + (throwable == null ? "" : " (" + throwable + ")"));
    }
  }
}
