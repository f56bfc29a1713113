package org.parl;

/**
 * The cluster's token is missing, unreadable, too loosely protected, or not the one the cluster
 * holds. The message says where the token was looked for, in order: {@code --token-file} (or
 * {@link ConnectOptions#setTokenFile}), {@code PARL_TOKEN}, {@code PARL_TOKEN_FILE}, then
 * {@code $PARL_HOME/token}.
 */
public class AuthenticationException extends ParlException {

  public AuthenticationException(String message) {
    super(message);
  }

  public AuthenticationException(String message, Throwable cause) {
    super(message, cause);
  }
}
