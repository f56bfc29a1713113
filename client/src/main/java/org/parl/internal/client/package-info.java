/**
 * Internal: not part of parl's API; it may change without notice.
 *
 * <p>The client runtime behind org.parl.Parl: the gateway connection and its failover, actor
 * proxies and their data connections, found through java.util.ServiceLoader.
 */
package org.parl.internal.client;
