package org.parl.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.internal.wire.ClassPaths;
import org.parl.worker.gpu.GpuAllocation;
import org.parl.worker.gpu.GpuDevice;
import org.parl.worker.gpu.GpuHealth;

/** The command, environment and files of a job process, as built before it starts. */
class JobLauncherTest {

  @TempDir
  Path tmp;

  private JobProcess job(List<Integer> gpus, int memoryLimitMb, boolean warmUp) {
    return new JobProcess("w1-7", gpus, memoryLimitMb, warmUp, tmp.resolve("logs/w1-7.log"), tmp.resolve("jobs/w1-7"));
  }

  private ProcessBuilder command(JobProcess job, List<String> extraOptions) {
    return new JobLauncher("10.0.0.5", tmp.resolve("blobs"), extraOptions).command(job, 4321);
  }

  @Test
  void aGpuJobSeesExactlyItsGpusInPciOrder() {
    ProcessBuilder pb = command(job(List.of(3, 1), 0, false), List.of());
    assertEquals("3,1", pb.environment().get("CUDA_VISIBLE_DEVICES"));
    assertEquals("PCI_BUS_ID", pb.environment().get("CUDA_DEVICE_ORDER"));
    assertEquals("0", command(job(List.of(0), 0, false), List.of()).environment().get("CUDA_VISIBLE_DEVICES"));
  }

  @Test
  void aMigInstanceIsVisibleByItsUuidAndTheJobIsToldTheUuidsToCheck() {
    JobLauncher launcher = new JobLauncher("10.0.0.5", tmp.resolve("blobs"), List.of());
    launcher.gpuAllocation(new GpuAllocation(List.of(new GpuDevice(1, "GPU-1", "H100", 1, 0, 0),
        new GpuDevice(100, "MIG-x", "1g.10gb", 10240, 0, 0, GpuHealth.HEALTHY, java.util.Optional.of(new GpuDevice.Mig(0, "GPU-0", 0))))));
    ProcessBuilder pb = launcher.command(job(List.of(100, 1), 0, false), 4321);
    assertEquals("MIG-x,1", pb.environment().get("CUDA_VISIBLE_DEVICES"));
    int at = pb.command().indexOf("--gpu-uuids");
    assertEquals("MIG-x,GPU-1", pb.command().get(at + 1), "on the command line: the job's environment holds no PARL_* variable");
    assertEquals(-1, command(job(List.of(), 0, false), List.of()).command().indexOf("--gpu-uuids"), "a CPU job checks nothing");
  }

  @Test
  void aCpuJobSeesNoGpu() {
    ProcessBuilder pb = command(job(List.of(), 0, true), List.of());
    assertEquals("", pb.environment().get("CUDA_VISIBLE_DEVICES"), "empty, not unset: CUDA would then show every GPU");
    assertEquals("PCI_BUS_ID", pb.environment().get("CUDA_DEVICE_ORDER"));
  }

  @Test
  void aMemoryLimitSetsTheHeapBelowIt() {
    List<String> limited = command(job(List.of(), 512, false), List.of()).command();
    assertTrue(limited.contains("-Xmx" + JobLauncher.heapMb(512) + "m"), limited.toString());
    assertTrue(limited.contains("-XX:+ExitOnOutOfMemoryError"), limited.toString());
    List<String> unlimited = command(job(List.of(), 0, false), List.of()).command();
    assertFalse(unlimited.stream().anyMatch(o -> o.startsWith("-Xmx")), unlimited.toString());
  }

  @Test
  void theHeapGetsMostOfTheLimitAndNeverLessThan16Mb() {
    assertEquals(384, JobLauncher.heapMb(512));
    assertEquals(52, JobLauncher.heapMb(100));
    assertEquals(768, JobLauncher.heapMb(1024));
    assertEquals(16, JobLauncher.heapMb(64));
    assertEquals(16, JobLauncher.heapMb(1));
  }

  @Test
  void extraJavaOptionsAreSplitOnWhiteSpace() {
    assertEquals(List.of(), JobLauncher.options(null));
    assertEquals(List.of(), JobLauncher.options(""));
    assertEquals(List.of(), JobLauncher.options(" \t "));
    assertEquals(List.of("-Xlog:gc", "-XX:+UseZGC", "-Dx=a=b"), JobLauncher.options("  -Xlog:gc \t-XX:+UseZGC\n -Dx=a=b "));
  }

  @Test
  void extraJavaOptionsComeBeforeTheMainClassAndAfterParlsOwn() {
    List<String> cmd = command(job(List.of(), 256, false), List.of("-Xlog:gc", "-Dy=1")).command();
    int extra = cmd.indexOf("-Xlog:gc");
    assertEquals(extra + 1, cmd.indexOf("-Dy=1"));
    assertTrue(extra > cmd.indexOf("-Xmx" + JobLauncher.heapMb(256) + "m"), "a user's -Xmx would win over parl's: " + cmd);
    assertTrue(extra < cmd.indexOf("org.parl.job.JobMain"), cmd.toString());
  }

  @Test
  void aJobWithAMemoryLimitIsToldItSoThatItSizesSharedMemoryByIt() {
    List<String> cmd = command(job(List.of(), 256, false), List.of()).command();
    int at = cmd.indexOf("--memory-limit-mb");
    assertTrue(at > cmd.indexOf("org.parl.job.JobMain"), cmd.toString());
    assertEquals("256", cmd.get(at + 1));
    assertFalse(command(job(List.of(), 0, false), List.of()).command().contains("--memory-limit-mb"), "no limit: no argument");
  }

  @Test
  void theJobConnectsBackOverLoopbackAndServesOnTheWorkersHost() {
    List<String> cmd = command(job(List.of(), 0, true), List.of()).command();
    int main = cmd.indexOf("org.parl.job.JobMain");
    assertEquals(List.of("--worker", "127.0.0.1:4321", "--slot", "w1-7", "--host", "10.0.0.5",
        "--blobs", tmp.resolve("blobs").toString(), "--warm-up", "true", "--code-cache-max-bytes", "2147483648"),
        cmd.subList(main + 1, cmd.size()));
    assertEquals(List.of("/usr/bin/setsid", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:+DisableAttachMechanism"), cmd.subList(0, 3), "a session of its own, a JVM that refuses attach");
    List<String> classPath = List.of(cmd.get(cmd.indexOf("-cp") + 1).split(File.pathSeparator));
    assertEquals(Set.copyOf(ClassPaths.current().stream().map(Path::toString).toList()), Set.copyOf(classPath),
        "the worker's own class path, manifests expanded");
  }

  /** An idle job gives back what its C libraries freed, where this Java can (17.0.9 and later). */
  @Test
  void aJobTrimsItsNativeHeapWhereJavaCan() {
    List<String> cmd = command(job(List.of(), 0, true), List.of()).command();
    assertEquals(hasOption("TrimNativeHeapInterval"), cmd.contains("-XX:TrimNativeHeapInterval=3000"), cmd.toString());
    assertTrue(cmd.indexOf("-XX:TrimNativeHeapInterval=3000") < cmd.indexOf("org.parl.job.JobMain"), cmd.toString());
  }

  private static boolean hasOption(String name) {
    try {
      ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption(name);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** A job opens no jar before its own: they come first, the rest keeps its order. */
  @Test
  void theJobsOwnJarsComeFirstOnItsClassPath() {
    Path a = Path.of("/i/hazelcast.jar");
    Path b = Path.of("/i/parl-job.jar");
    Path c = Path.of("/i/netty.jar");
    Path d = Path.of("/i/jackson-core.jar");
    assertEquals(List.of(b, d, a, c), JobLauncher.jobClassPath(List.of(a, b, c, d), List.of(b, d, Path.of("/elsewhere/x.jar"), b)));
  }

  @Test
  void itRunsInItsOwnDirectoryAndAllItsOutputGoesThroughTheWorker() {
    JobProcess job = job(List.of(), 0, false);
    ProcessBuilder pb = command(job, List.of());
    assertEquals(job.workDir().toFile(), pb.directory());
    assertEquals(ProcessBuilder.Redirect.PIPE, pb.redirectOutput(), "the worker writes it to the job's log, capped (JobOutput)");
    assertTrue(pb.redirectErrorStream(), "stderr goes to the same log");
    assertEquals(ProcessBuilder.Redirect.PIPE, pb.redirectInput(), "its secrets arrive on standard input");
  }

  @Test
  void itsSecretsGoOnStandardInputNeverOnTheCommandLineNorInTheEnvironment() throws Exception {
    JobProcess job = job(List.of(), 0, true);
    String[] lines = JobLauncher.secrets(job).split("\n");
    assertEquals(List.of(job.secret().hex(), "plain"), List.of(lines));
    ProcessBuilder pb = command(job, List.of());
    assertFalse(String.join(" ", pb.command()).contains(job.secret().hex()));
    assertFalse(pb.environment().containsValue(job.secret().hex()));

    JobProcess tlsJob = new JobProcess("w1-8", List.of(), 0, true, tmp.resolve("logs/w1-8.log"), tmp.resolve("jobs/w1-8"), true);
    String[] tls = JobLauncher.secrets(tlsJob).split("\n")[1].split(" ");
    assertEquals("tls", tls[0]);
    X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
        .generateCertificate(new ByteArrayInputStream(Base64.getDecoder().decode(tls[2])));
    cert.checkValidity();
    PrivateKey key = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(tls[1])));
    assertEquals("EC", key.getAlgorithm());
    assertFalse(tls[2].equals(JobLauncher.secrets(tlsJob).split("\n")[1].split(" ")[2]), "a fresh key for every process");
  }
}
