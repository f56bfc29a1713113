package org.parl.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A stand-in for {@code nvidia-smi}: the only thing about GPUs that the demo, the benchmark and the
 * tests fake (with the tests' fake {@code libcuda.so.1}, which reads the same files). The one copy.
 *
 * <p>{@link #write(Path, List)} makes a folder of its own: the script {@code nvidia-smi} and the
 * files it answers from, which a test may change while it runs:
 * <ul>
 *   <li>{@code gpus}: one GPU a line, {@code INDEX UUID MEMORY_TOTAL_MIB MEMORY_USED_MIB UTILIZATION NAME...}
 *       (written here; the fake libcuda reads its first two fields);
 *   <li>{@code mig}: one MIG instance a line, {@code PARENT_INDEX DEVICE PROFILE MIG-UUID};
 *   <li>{@code faults} (the test's): lines {@code INDEX ecc=N}, {@code INDEX retired} (pending
 *       retired pages), {@code INDEX remap} (pending row remaps), {@code INDEX lost};
 *   <li>{@code compute-apps} (the test's): lines {@code PID,UUID,MiB}.
 * </ul>
 * It answers as the real one does: {@code --query-gpu=FIELDS} and {@code --query-compute-apps=FIELDS}
 * with {@code --format=csv,noheader,nounits} (an unknown field: a message and exit 2), {@code -L}
 * with MIG instances under their GPU; a lost GPU prints {@code [GPU is lost]} for every field but its
 * index (in {@code -L}: {@code Unable to determine the device handle ...}) and makes it exit 15.
 */
public final class FakeNvidiaSmi {

  /** The fake's fields of {@code --query-gpu}. */
  private static final String GPU_FIELDS = "index uuid name memory.total memory.used utilization.gpu pci.bus_id "
      + "ecc.errors.uncorrected.volatile.total retired_pages.pending remapped_rows.pending";
  private static final String APP_FIELDS = "pid gpu_uuid used_memory process_name";

  /** One fake GPU; with {@code migs}, it is in MIG mode with those instances. */
  public record Gpu(int index, String uuid, String name, long memoryTotalMb, long memoryUsedMb, int utilization, List<Mig> migs) {
    public Gpu {
      migs = List.copyOf(migs);
    }

    /** The same GPU in MIG mode with these instances. */
    public Gpu withMigs(List<Mig> m) {
      return new Gpu(index, uuid, name, memoryTotalMb, memoryUsedMb, utilization, m);
    }
  }

  /** One MIG instance of a fake GPU: its device number under the GPU, its profile ({@code 1g.10gb}), its UUID. */
  public record Mig(int device, String profile, String uuid) {}

  private FakeNvidiaSmi() {}

  /** Fake GPUs 0..N-1 with the UUIDs of {@link #uuid(int)}: each NVIDIA Fake H100, 81559 MiB. */
  public static List<Gpu> gpus(int count) {
    List<Gpu> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(new Gpu(i, uuid(i), "NVIDIA Fake H100", 81559, 512 + 100 * i, 3 * i, List.of()));
    }
    return out;
  }

  /** GPU {@code i}'s UUID, in nvidia-smi's form (hex, so that the fake libcuda can give it as 16 bytes). */
  public static String uuid(int i) {
    return String.format(Locale.ROOT, "GPU-fa4e0000-0000-0000-0000-%012d", i);
  }

  /** A MIG instance's UUID, in the form of drivers since R470. */
  public static String migUuid(int gpu, int device) {
    return String.format(Locale.ROOT, "MIG-fa4e0000-0000-0000-%04d-%012d", gpu, device);
  }

  /**
   * Writes a fake listing GPUs 0..N-1 in the folder {@code dir/fake-gpus-N}, and returns its script.
   * The folder stands for one host: its GPUs' UUIDs are made from the folder's path, so that two
   * folders are two hosts whose GPUs differ, and the same call twice lists the same physical GPUs
   * (which one host's two workers must not both lend).
   */
  public static Path write(Path dir, int count) throws IOException {
    Path folder = dir.resolve("fake-gpus-" + count);
    int host = folder.toAbsolutePath().normalize().toString().hashCode();
    List<Gpu> gpus = new ArrayList<>();
    for (Gpu g : gpus(count)) {
      gpus.add(new Gpu(g.index(), uuid(host, g.index()), g.name(), g.memoryTotalMb(), g.memoryUsedMb(), g.utilization(),
          g.migs()));
    }
    return write(folder, gpus);
  }

  /** GPU {@code i}'s UUID on the fake host {@code host}, in nvidia-smi's form (hex throughout). */
  public static String uuid(int host, int i) {
    return String.format(Locale.ROOT, "GPU-fa4e%04x-%04x-0000-0000-%012d", host >>> 16, host & 0xffff, i);
  }

  /** Writes the script and its {@code gpus} and {@code mig} files into {@code dir}, and returns the script. */
  public static Path write(Path dir, List<Gpu> gpus) throws IOException {
    Files.createDirectories(dir);
    Path abs = dir.toAbsolutePath();
    StringBuilder list = new StringBuilder();
    StringBuilder migs = new StringBuilder();
    for (Gpu g : gpus) {
      list.append(String.format(Locale.ROOT, "%d %s %d %d %d %s%n", g.index(), g.uuid(), g.memoryTotalMb(),
          g.memoryUsedMb(), g.utilization(), g.name()));
      for (Mig m : g.migs()) {
        migs.append(String.format(Locale.ROOT, "%d %d %s %s%n", g.index(), m.device(), m.profile(), m.uuid()));
      }
    }
    Files.writeString(dir.resolve("gpus"), list);
    Files.writeString(dir.resolve("mig"), migs);
    Path script = dir.resolve("nvidia-smi");
    Files.writeString(script, script(abs, gpus.size()));
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return script;
  }

  private static String script(Path dir, int count) {
    String d = "'" + dir.toString().replace("'", "'\\''") + "'";
    return """
        #!/bin/sh
        # fake nvidia-smi (parl): %d GPU(s), answering from the files of its folder (FakeNvidiaSmi)
        D=%s
        GPU_FIELDS=' %s '
        APP_FIELDS=' %s '
        has() { [ -f "$D/faults" ] && grep -qE "^$1 +$2( |$)" "$D/faults"; }
        ecc() { v=$(grep -E "^$1 +ecc=" "$D/faults" 2>/dev/null | head -n 1 | sed 's/.*ecc=//'); echo "${v:-0}"; }
        yesno() { if has "$1" "$2"; then echo Yes; else echo No; fi; }
        mig() { [ -s "$D/mig" ] && grep -qE "^$1 " "$D/mig"; }
        busid() { printf '00000000:%%02X:00.0' $(($1 + 1)); }
        fields() { # checks every field of a query, as nvidia-smi does before it prints anything
          for f in $(echo "$1" | tr ',' ' '); do
            case "$2" in *" $f "*) ;; *) echo "Field \\"$f\\" is not a valid field to query."; exit 2 ;; esac
          done
        }
        header() { case "$FORMAT" in *noheader*) ;; *) echo "$1" | sed 's/,/, /g' ;; esac; }
        value() {
          case "$1" in
            index) echo "$idx" ;;
            uuid) echo "$uuid" ;;
            name) echo "$name" ;;
            memory.total) echo "$total" ;;
            memory.used) echo "$used" ;;
            utilization.gpu) if mig "$idx"; then echo '[N/A]'; else echo "$util"; fi ;;
            pci.bus_id) busid "$idx" ;;
            ecc.errors.uncorrected.volatile.total) ecc "$idx" ;;
            retired_pages.pending) yesno "$idx" retired ;;
            remapped_rows.pending) yesno "$idx" remap ;;
          esac
        }
        query_gpu() {
          fields "$1" "$GPU_FIELDS"
          header "$1"
          rc=0
          while read -r idx uuid total used util name; do
            [ -n "$idx" ] || continue
            line=''; sep=''
            for f in $(echo "$1" | tr ',' ' '); do
              if has "$idx" lost && [ "$f" != index ]; then v='[GPU is lost]'; rc=15; else v=$(value "$f"); fi
              line="$line$sep$v"; sep=', '
            done
            echo "$line"
          done < "$D/gpus"
          exit $rc
        }
        query_apps() {
          fields "$1" "$APP_FIELDS"
          header "$1"
          [ -f "$D/compute-apps" ] || exit 0
          while IFS=, read -r pid uuid mb; do
            [ -n "$pid" ] || continue
            line=''; sep=''
            for f in $(echo "$1" | tr ',' ' '); do
              case "$f" in pid) v=$pid ;; gpu_uuid) v=$uuid ;; used_memory) v=$mb ;; process_name) v=java ;; esac
              line="$line$sep$v"; sep=', '
            done
            echo "$line"
          done < "$D/compute-apps"
          exit 0
        }
        list() {
          rc=0
          while read -r idx uuid total used util name; do
            [ -n "$idx" ] || continue
            if has "$idx" lost; then
              echo "Unable to determine the device handle for gpu $(busid "$idx"): GPU is lost.  Reboot the system to recover this GPU"
              rc=15; continue
            fi
            echo "GPU $idx: $name (UUID: $uuid)"
            [ -s "$D/mig" ] && while read -r parent device profile muuid; do
              [ "$parent" = "$idx" ] && printf '  MIG %%-11s Device %%2d: (UUID: %%s)\\n' "$profile" "$device" "$muuid"
            done < "$D/mig"
          done < "$D/gpus"
          exit $rc
        }
        FORMAT=''
        for a in "$@"; do case "$a" in --format=*) FORMAT=${a#--format=} ;; esac; done
        for a in "$@"; do
          case "$a" in
            -L|--list-gpus) list ;;
            --query-gpu=*) query_gpu "${a#--query-gpu=}" ;;
            --query-compute-apps=*) query_apps "${a#--query-compute-apps=}" ;;
          esac
        done
        if [ $# -eq 0 ]; then
          echo "fake nvidia-smi (parl): $(grep -c . "$D/gpus") GPU(s) in $D"
          exit 0
        fi
        echo "Invalid combination of input arguments. Please run 'nvidia-smi -h' for help."
        exit 2
        """.formatted(count, d, GPU_FIELDS, APP_FIELDS);
  }
}
