/**
 * A worker's GPUs as {@code nvidia-smi} shows them, and what keeps lending them safe: the inventory
 * read under a deadline ({@link org.parl.worker.gpu.GpuInventory}, parsed by
 * {@link org.parl.worker.gpu.NvidiaSmiCsv} and {@link org.parl.worker.gpu.NvidiaSmiList}, whole GPUs and
 * MIG instances made into units by {@link org.parl.worker.gpu.GpuUnits}); each unit's health and identity
 * ({@link org.parl.worker.gpu.GpuHealth}, {@link org.parl.worker.gpu.InventoryChange}) and what is reported
 * of them ({@link org.parl.worker.gpu.GpuHealthWatch}); one lender per physical GPU on a host
 * ({@link org.parl.worker.gpu.GpuLocks}); the worker's own check that a grant does not over-share a GPU
 * ({@link org.parl.worker.gpu.GpuHolds}); what a job is told of its GPUs
 * ({@link org.parl.worker.gpu.GpuAllocation}, {@link org.parl.worker.gpu.GpuPolicy}); and the per-process
 * GPU memory a job uses ({@link org.parl.worker.gpu.GpuProcesses}). It knows no job process and no worker
 * verticle: the worker ({@code org.parl.worker}) builds on it, and only GPU hardware is faked in tests
 * (a fake {@code nvidia-smi}).
 */
package org.parl.worker.gpu;
