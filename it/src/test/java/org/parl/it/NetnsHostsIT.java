package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.parl.bench.EchoServer;
import org.parl.internal.wire.ClassPaths;
import org.parl.it.hosts.Host;
import org.parl.it.hosts.NetnsHosts;

/** The multi-host test bed itself: reachability, a cut and its repair, the sweep and the teardown. */
class NetnsHostsIT {

  @Test
  void hostsReachEachOtherUntilCutAndLeaveNothingBehind() throws Exception {
    String leftover = "parlt-" + Long.toString(deadPid(), 36) + "-z1";
    ProcessBuilder stale = new ProcessBuilder("ip", "netns", "add", leftover).inheritIO();
    NetnsHosts bed;
    ParlProcess server;
    boolean staleMade = stale.start().waitFor() == 0;
    bed = NetnsHosts.create(2);
    try (bed) {
      assertFalse(staleMade && namespaces().contains(leftover), "a killed run's namespace is swept at start");
      Host a = bed.host(0);
      Host b = bed.host(1);
      assertEquals(List.of("10.77.0.2", "10.77.0.3"), List.of(a.address, b.address));
      assertTrue(a.exec("ip", "-4", "-o", "addr", "show", "dev", Host.LINK).contains("inet 10.77.0.2/24"));
      assertEquals("", a.exec("ip", "-6", "-o", "addr", "show", "dev", Host.LINK), "no IPv6 address, so no IPv6 chatter");
      server = b.java(Map.of(), ClassPaths.current(), EchoServer.class, b.address);
      String port = server.awaitLine(Pattern.quote(EchoServer.PORT_LINE) + "(\\d+)", TestCluster.START).group(1);
      assertTrue(reaches(a, b, port), "A reaches B");
      b.cut();
      assertFalse(reaches(a, b, port), "a cut host is unreachable");
      b.restore();
      assertTrue(reaches(a, b, port), "a restored host is reachable again");
    }
    assertEquals(List.of(), bed.remains());
    assertFalse(server.isAlive(), "processes inside the bed are killed");
  }

  private static boolean reaches(Host from, Host to, String port) {
    try {
      from.exec("timeout", "3", "bash", "-c", "exec 3<>/dev/tcp/" + to.address + "/" + port);
      return true;
    } catch (IllegalStateException e) {
      return false;
    }
  }

  private static List<String> namespaces() throws Exception {
    Process p = new ProcessBuilder("ip", "netns", "list").start();
    return new String(p.getInputStream().readAllBytes()).lines().map(l -> l.split("\\s+")[0]).toList();
  }

  /** The pid of a process that has just ended: a run killed long ago. */
  private static long deadPid() throws Exception {
    Process p = new ProcessBuilder("true").start();
    p.waitFor();
    return p.pid();
  }
}
