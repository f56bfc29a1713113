package org.parl;

/**
 * What one bundle of a {@link PlacementGroup} holds, in the same terms as an actor's resources
 * ({@link ActorBuilder}): an actor created into the bundle takes exactly this. Checked when the group is
 * created: {@link ParlClient#createGroupAsync} fails with {@link InvalidRequestException} for amounts an
 * actor could not ask for.
 *
 * @param cpus CPUs (on a mixed cluster also a GPU bundle's own CPUs; a GPU cluster lends none)
 * @param gpus whole GPUs, or a share of one GPU below 1 in thousandths ({@code 0.25}), or 0
 * @param gpuMemoryMb GPU memory budget in MiB on each of its GPUs, or 0
 * @param gpuModel a text the GPU's inventory name must contain, or null for any
 */
public record Bundle(int cpus, double gpus, long gpuMemoryMb, String gpuModel) {

  /** A bundle of {@code n} CPUs. */
  public static Bundle cpus(int n) {
    return new Bundle(n, 0, 0, null);
  }

  /** A bundle of {@code n} GPUs (a whole number, or a share below 1) and 1 CPU, as a GPU actor takes by default. */
  public static Bundle gpus(double n) {
    return new Bundle(1, n, 0, null);
  }

  /** The same bundle with {@code n} CPUs. */
  public Bundle withCpus(int n) {
    return new Bundle(n, gpus, gpuMemoryMb, gpuModel);
  }

  /** The same bundle with a GPU memory budget in MiB. */
  public Bundle withGpuMemoryMb(long mb) {
    return new Bundle(cpus, gpus, mb, gpuModel);
  }

  /** The same bundle on GPUs whose inventory name contains {@code model}. */
  public Bundle withGpuModel(String model) {
    return new Bundle(cpus, gpus, gpuMemoryMb, model);
  }
}
