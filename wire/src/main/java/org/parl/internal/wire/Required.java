package org.parl.internal.wire;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a record component of a typed message that must be present and not null on the wire.
 * Needed for primitives only: a missing or null number would otherwise decode as 0 (other
 * components are checked by the record's compact constructor). Read by {@link RecordShape}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.PARAMETER, ElementType.FIELD, ElementType.METHOD})
public @interface Required {}
