package org.parl.control;

import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * A message of the control plane between master, JobCenter, workers and monitors: one record per
 * operation, grouped by receiver, sent as the body of an event-bus message and encoded by
 * {@link ControlCodec} (JSON named by {@code type}). Handlers are found by the record's class
 * ({@link Dispatcher}); nothing is dispatched by strings.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
public sealed interface ControlMessage permits JobCenterRequest, WorkerRequest, GatewayQuery, ControlReply, LocalEvent {}
