package org.parl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConnectOptionsTest {

  @Test
  void timeoutsOutsideTheirRangeAreRefusedAtTheSetterWithTheRange() {
    ConnectOptions o = new ConnectOptions("h:1");
    for (Duration bad : List.of(Duration.ZERO, Duration.ofSeconds(-1), Duration.ofDays(2))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> o.setResourceWaitTimeout(bad));
      assertTrue(e.getMessage().contains("between 1 ms and 24 hours"), e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> o.setConnectTimeout(bad));
    }
    assertThrows(NullPointerException.class, () -> o.setResourceWaitTimeout(null));
    assertEquals(Duration.ofDays(1), o.setResourceWaitTimeout(Duration.ofDays(1)).getResourceWaitTimeout());
  }

  @Test
  void aCopyIsIndependentOfTheOriginal() {
    ConnectOptions original = new ConnectOptions("h:1").addDistributedFiles("a/*.json").setCallTimeout(Duration.ofSeconds(3));
    ConnectOptions copy = new ConnectOptions(original);
    original.setAddress("other:2").addDistributedFiles("b/*").setResourceWaitTimeout(Duration.ofSeconds(7));
    assertEquals("h:1", copy.getAddress());
    assertEquals(List.of("a/*.json"), copy.getDistributedFiles());
    assertEquals(Duration.ofSeconds(300), copy.getResourceWaitTimeout());
    assertEquals(Duration.ofSeconds(3), copy.getCallTimeout());
  }
}
