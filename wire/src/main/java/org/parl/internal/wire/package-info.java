/**
 * Internal: not part of parl's API; it may change without notice.
 *
 * <p>The value codec, data-path frames and their authentication and sealing, the error vocabulary
 * and the JSON-lines sockets, shared by the client, job processes and nodes.
 */
package org.parl.internal.wire;
