package org.parl.it.slurm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.parl.bench.netns.Commands;
import org.parl.it.Await;
import org.parl.it.ParlProcess;
import org.parl.it.hosts.Host;
import org.parl.it.hosts.NetnsHosts;

/**
 * A real, throwaway Slurm (Debian's slurm-wlm 22.05 and munge, installed by {@code bin/setup-slurm})
 * on a bed of network namespaces: {@code slurmctld} on host A (hostname {@code ctl}), one
 * {@code slurmd} on each further host (hostnames {@code n1}, {@code n2}, ... through
 * {@code unshare --uts}), {@code munged} with its own key and socket in the cluster's folder, and
 * {@code G} fake GPUs per node: GRES character devices (major 195, as NVIDIA's) made with
 * {@code mknod} in that folder. Everything it writes is in that folder; {@link #close()} stops every
 * daemon by pid.
 */
public final class SlurmCluster implements AutoCloseable {

  /** How long the daemons get to start. */
  private static final Duration START = Duration.ofSeconds(60);

  private final Path dir;
  private final Host controller;
  private final List<Host> nodes;
  private final ParlProcess munged;
  private final List<ParlProcess> daemons = new ArrayList<>();
  private final Map<String, Long> slurmd = new HashMap<>();

  private SlurmCluster(Path dir, Host controller, List<Host> nodes, ParlProcess munged) {
    this.dir = dir;
    this.controller = controller;
    this.nodes = nodes;
    this.munged = munged;
  }

  /**
   * Starts the daemons: host 0 of {@code bed} is the controller, the others the nodes n1, n2, ...
   *
   * @param dir an empty folder for the configuration, state, devices and the munge key
   */
  public static SlurmCluster start(NetnsHosts bed, Path dir, int gpusPerNode) throws Exception {
    List<Host> nodes = bed.hosts().subList(1, bed.hosts().size());
    for (String sub : List.of("state", "spool", "dev", "munge")) {
      Files.createDirectories(dir.resolve(sub));
    }
    Commands.run("chmod", "700", dir.resolve("munge").toString());
    for (int g = 0; g < gpusPerNode; g++) {
      Commands.run("mknod", dir.resolve("dev/nvidia" + g).toString(), "c", "195", String.valueOf(g));
    }
    for (int i = 0; i < nodes.size(); i++) {
      Files.createDirectories(dir.resolve("spool/" + nodeName(i)));
    }
    Files.writeString(dir.resolve("slurm.conf"), slurmConf(dir, bed.host(0), nodes, gpusPerNode));
    Files.writeString(dir.resolve("gres.conf"), "NodeName=" + nodes.stream().map(h -> nodeName(nodes.indexOf(h)))
        .collect(Collectors.joining(",")) + " Name=gpu File=" + dir.resolve("dev") + "/nvidia[0-" + (gpusPerNode - 1) + "]\n");
    // this kernel mounts cgroup v1 controllers beside an empty cgroup2 tree: slurmd's autodetection fails there
    Files.writeString(dir.resolve("cgroup.conf"), "CgroupPlugin=cgroup/v1\n");
    Path key = dir.resolve("munge/munge.key");
    Commands.run("mungekey", "--create", "--keyfile=" + key);
    ParlProcess munged = ParlProcess.startCommand(Map.of(), "munged", List.of("munged", "--foreground", "--force",
        "--socket=" + socket(dir), "--key-file=" + key, "--pid-file=" + dir.resolve("munge/munged.pid"),
        "--log-file=" + dir.resolve("munge/munged.log"), "--seed-file=" + dir.resolve("munge/munged.seed")));
    SlurmCluster slurm = new SlurmCluster(dir, bed.host(0), nodes, munged);
    try {
      Await.until("munged's socket " + socket(dir), START, () -> Files.exists(socket(dir)));
      ParlProcess ctld = slurm.daemon(bed.host(0), "ctl", "slurmctld", "-D", "-i");
      ctld.awaitLine("Running as primary controller", START);
      List<ParlProcess> started = new ArrayList<>();
      for (int i = 0; i < nodes.size(); i++) {
        ParlProcess d = slurm.daemon(nodes.get(i), nodeName(i), "slurmd", "-D");
        slurm.slurmd.put(nodeName(i), d.pid());
        started.add(d);
      }
      for (ParlProcess d : started) {
        d.awaitLine("slurmd started on", START);
      }
      return slurm;
    } catch (Exception | Error e) {
      slurm.close();
      throw e;
    }
  }

  private static String slurmConf(Path dir, Host ctl, List<Host> nodes, int gpus) {
    StringBuilder sb = new StringBuilder("""
        ClusterName=parltest
        SlurmctldHost=ctl(%s)
        SlurmUser=root
        SlurmdUser=root
        AuthType=auth/munge
        CredType=cred/munge
        AuthInfo=socket=%s
        StateSaveLocation=%s/state
        SlurmdSpoolDir=%s/spool/%%n
        SlurmctldPidFile=%s/slurmctld.pid
        SlurmdPidFile=%s/slurmd-%%n.pid
        ProctrackType=proctrack/pgid
        TaskPlugin=task/none
        SelectType=select/cons_tres
        SelectTypeParameters=CR_CPU
        SlurmdParameters=config_overrides
        GresTypes=gpu
        MpiDefault=none
        MailProg=/bin/true
        ReturnToService=2
        KillWait=10
        JobAcctGatherType=jobacct_gather/none
        AccountingStorageType=accounting_storage/none
        """.formatted(ctl.address, socket(dir), dir, dir, dir, dir));
    for (int i = 0; i < nodes.size(); i++) {
      sb.append("NodeName=").append(nodeName(i)).append(" NodeAddr=").append(nodes.get(i).address)
          .append(" CPUs=2 Gres=gpu:").append(gpus).append(" State=UNKNOWN\n");
    }
    sb.append("PartitionName=test Nodes=ALL Default=YES MaxTime=10 State=UP\n");
    return sb.toString();
  }

  private static Path socket(Path dir) {
    return dir.resolve("munge/munge.socket");
  }

  /** Slurm's name of node {@code i}, from 0: n1, n2, ... */
  public static String nodeName(int i) {
    return "n" + (i + 1);
  }

  /** Starts a daemon in the foreground inside {@code host}, under its own hostname; its pid is the daemon's. */
  private ParlProcess daemon(Host host, String hostname, String... daemon) {
    List<String> cmd = new ArrayList<>(List.of(daemon));
    cmd.addAll(List.of("-f", conf().toString()));
    ParlProcess p = host.start(env(), hostname + "-" + daemon[0], List.of("unshare", "--uts", "sh", "-c",
        "hostname " + hostname + " && exec " + String.join(" ", cmd)));
    daemons.add(p);
    return p;
  }

  /** The environment Slurm's commands need: {@code SLURM_CONF}. */
  public Map<String, String> env() {
    return Map.of("SLURM_CONF", conf().toString());
  }

  public Path conf() {
    return dir.resolve("slurm.conf");
  }

  /** Runs a Slurm command ({@code sbatch}, {@code scancel}, ...) on the controller's host and returns its output. */
  public String run(String... cmd) {
    List<String> full = new ArrayList<>(List.of("env", "SLURM_CONF=" + conf()));
    full.addAll(List.of(cmd));
    return controller.exec(full.toArray(String[]::new)).strip();
  }

  /** Starts a Slurm command on the controller's host as a process of its own (such as {@code sbatch --wait}). */
  public ParlProcess start(Map<String, String> env, String label, List<String> cmd) {
    Map<String, String> all = new HashMap<>(env);
    all.putAll(env());
    return controller.start(all, label, cmd);
  }

  /** The pid of node {@code name}'s slurmd. */
  public long slurmd(String name) {
    return slurmd.get(name);
  }

  /** The hosts of the nodes, n1 first. */
  public List<Host> nodes() {
    return List.copyOf(nodes);
  }

  /** The pids of every process inside {@code host}'s network namespace. */
  public static Set<Long> pidsInside(Host host) {
    return Commands.tryRun("ip", "netns", "pids", host.namespace).output().lines().map(String::strip)
        .filter(s -> s.matches("\\d+")).map(Long::parseLong).collect(Collectors.toSet());
  }

  /** Stops slurmd, slurmctld and munged, by pid; safe to call twice. */
  @Override
  public void close() {
    daemons.forEach(ParlProcess::close);
    munged.close();
  }
}
