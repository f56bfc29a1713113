/**
 * Internal: not part of parl's API; it may change without notice.
 *
 * <p>The cluster token, records signed with it, shared secrets and private files.
 */
package org.parl.internal.security;
