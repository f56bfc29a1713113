/**
 * External commands run under a deadline that is enforced ({@link org.parl.command.TimedCommand}):
 * {@code nvidia-smi} for the worker's GPUs and Slurm's tools for {@code parl slurm}, neither of which
 * may block its caller for longer than it allows.
 */
package org.parl.command;
