package org.parl.slurm;

/**
 * One node of an allocation.
 *
 * @param name Slurm's name for it ({@code NodeName}, what {@code SLURMD_NODENAME} says on it)
 * @param address the IP address other nodes reach it at: its {@code NodeAddr} (the name itself unless
 *     {@code slurm.conf} says otherwise), resolved
 */
public record SlurmNode(String name, String address) {

  @Override
  public String toString() {
    return name + " (" + address + ")";
  }
}
