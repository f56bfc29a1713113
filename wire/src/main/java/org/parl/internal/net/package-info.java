/**
 * Internal: not part of parl's API; it may change without notice.
 *
 * <p>host:port addresses and host names.
 */
package org.parl.internal.net;
