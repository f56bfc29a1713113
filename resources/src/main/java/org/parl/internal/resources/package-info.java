/**
 * Internal: not part of parl's API; it may change without notice.
 *
 * <p>What an actor asks for and is granted: GPU amounts in exact units, the resource request and
 * the allocation; plain Java.
 */
package org.parl.internal.resources;
