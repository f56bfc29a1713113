package org.parl.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.NetworkInterface;
import java.nio.file.Path;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.wire.SharedLink;

class SharedOfferTest {

  @TempDir
  Path dir;

  @Test
  void onlyThisHostsAddressesAreTheSameHost() throws Exception {
    assertTrue(SharedOffer.sameHost("127.0.0.1"));
    assertTrue(SharedOffer.sameHost("localhost"));
    for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      ni.inetAddresses().forEach(a -> assertTrue(SharedOffer.sameHost(a.getHostAddress()), a.toString()));
    }
    assertFalse(SharedOffer.sameHost("192.0.2.1"), "TEST-NET-1: never an interface of this host");
    assertFalse(SharedOffer.sameHost("no-such-host.invalid"));
  }

  @Test
  void theAreaTakesAtMostAnEighthOfTheJobsMemoryLimit() {
    assertEquals(SharedLink.DEFAULT_HALF, SharedOffer.halfBytes(0), "no limit");
    assertEquals(SharedLink.DEFAULT_HALF, SharedOffer.halfBytes(4096));
    int half = SharedOffer.halfBytes(128);
    assertTrue(SharedLink.areaBytes(half) <= (128 << 20) / SharedLink.LIMIT_SHARE, "16 MiB at most: " + half);
    assertTrue(half > (7 << 20), half + " bytes per direction");
    assertEquals(0, SharedOffer.halfBytes(2), "too small to be worth it");
  }

  @Test
  void noOfferToAnotherHostOrWhenTurnedOff() {
    assertNull(SharedOffer.make(true, "192.0.2.1", 0, dir));
    assertNull(SharedOffer.make(false, "127.0.0.1", 0, dir));
    assertNull(SharedOffer.make(true, "127.0.0.1", 2, dir));
    assertNull(SharedOffer.make(true, "127.0.0.1", 0, dir.resolve("missing")), "cannot be made: none, no failure");
    try (SharedLink offer = SharedOffer.make(true, "127.0.0.1", 0, dir)) {
      assertNotNull(offer);
      assertEquals(SharedLink.areaBytes(SharedLink.DEFAULT_HALF), offer.size());
    }
  }
}
