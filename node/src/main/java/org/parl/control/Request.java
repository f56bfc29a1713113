package org.parl.control;

/**
 * A control message that is answered: {@code R} is the type of its reply, so that senders
 * ({@link ControlBus}) and handlers ({@link Dispatcher}) agree on it at compile time.
 *
 * @param <R> the reply's type
 */
public interface Request<R extends ControlReply> {}
