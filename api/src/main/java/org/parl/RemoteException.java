package org.parl;

import java.util.List;

/**
 * A remote method (or constructor) threw. The remote exception's class name, message and stack
 * trace are kept; the stack trace also appears as this exception's cause, so that it prints like
 * a local one. The actor stays usable, as a local object would.
 */
public class RemoteException extends ParlException {

  private final String remoteClassName;
  private final String remoteMessage;

  public RemoteException(String message, String remoteClassName, String remoteMessage, List<StackTraceElement> remoteStack) {
    super(message, new RemoteTrace(remoteClassName, remoteMessage, remoteStack));
    this.remoteClassName = remoteClassName;
    this.remoteMessage = remoteMessage;
  }

  /** Fully qualified class name of the exception thrown remotely, e.g. {@code java.lang.IllegalStateException}. */
  public String remoteClassName() {
    return remoteClassName;
  }

  /** The remote exception's own message (may be null). */
  public String remoteMessage() {
    return remoteMessage;
  }

  /** The remote stack trace. */
  public StackTraceElement[] remoteStackTrace() {
    return getCause().getStackTrace();
  }

  /** Stands for the remote exception in a printed stack trace. */
  static final class RemoteTrace extends RuntimeException {
    RemoteTrace(String className, String message, List<StackTraceElement> stack) {
      super("(remote) " + className + (message != null ? ": " + message : ""), null, false, true);
      setStackTrace(stack.toArray(StackTraceElement[]::new));
    }
  }
}
