package org.parl;

import java.time.Duration;

/**
 * A call got no answer within its timeout ({@link ConnectOptions#setCallTimeout(Duration)} or
 * {@link RemoteActor#withTimeout(Duration)}). The actor is still usable: the call may still run
 * (and later calls to the same actor run after it), its late answer is dropped.
 */
public class CallTimeoutException extends ParlException {

  public CallTimeoutException(String message) {
    super(message);
  }
}
