/**
 * The typed control plane between masters, the JobCenter, workers and monitors: every operation is
 * a record under the sealed {@link org.parl.control.ControlMessage}, grouped by who receives it
 * (JobCenter, worker, gateway, local events), sent through {@link org.parl.control.ControlBus}
 * (always with a timeout, the reply checked against the type the request declares), encoded by the
 * one strict codec {@link org.parl.control.ControlCodec} and dispatched to handlers by record type
 * ({@link org.parl.control.Dispatcher}). A job and its resources is the wire module's
 * {@link org.parl.internal.wire.gateway.Job}, shared with clients; a job process as its worker sees it,
 * {@link org.parl.control.JobView}, lives here.
 */
package org.parl.control;
