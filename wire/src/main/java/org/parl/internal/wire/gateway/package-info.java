/**
 * Internal: not part of parl's API; it may change without notice.
 *
 * <p>The typed protocol between clients and a master's gateway: requests, replies, handshakes and
 * the records of jobs, workers and masters it carries.
 */
package org.parl.internal.wire.gateway;
