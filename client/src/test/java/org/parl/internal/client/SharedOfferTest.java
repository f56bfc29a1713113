package org.parl.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.parl.internal.wire.SharedLink;

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
    try (SharedOffer on = new SharedOffer(true, dir); SharedOffer off = new SharedOffer(false, dir);
        SharedOffer nowhere = new SharedOffer(true, dir.resolve("missing"))) {
      assertNull(on.make("192.0.2.1", 0));
      assertNull(off.make("127.0.0.1", 0));
      assertNull(on.make("127.0.0.1", 2));
      assertNull(nowhere.make("127.0.0.1", 0), "cannot be made: none, no failure");
      try (SharedLink offer = on.make("127.0.0.1", 0)) {
        assertNotNull(offer);
        assertEquals(SharedLink.areaBytes(SharedLink.DEFAULT_HALF), offer.size());
      }
    }
  }

  @Test
  void theNextAreaIsMadeAheadInTheSizeLastOfferedAndRemovedWithTheClient() throws Exception {
    SharedOffer offers = new SharedOffer(true, dir);
    offers.refill();
    assertEquals(0, areas(), "nothing is made before the first offer");
    SharedLink first = offers.make("127.0.0.1", 128);
    first.close();
    offers.refill();
    assertEquals(1, areas(), "one spare, made ahead");
    SharedLink second = offers.make("127.0.0.1", 128);
    assertEquals(SharedLink.areaBytes(SharedOffer.halfBytes(128)), second.size(), "the spare, in the size asked");
    assertEquals(1, areas(), "the spare was taken, not another made");
    SharedLink bigger = offers.make("127.0.0.1", 0);
    assertEquals(SharedLink.areaBytes(SharedLink.DEFAULT_HALF), bigger.size(), "a spare of another size is not offered");
    offers.refill();
    offers.refill();
    assertEquals(3, areas(), "the two offers, and one spare however often it is refilled");
    second.close();
    bigger.close();
    offers.close();
    assertEquals(0, areas(), "closing the client removes its spare");
    offers.refill();
    assertEquals(0, areas(), "and none is made after");
  }

  /** The area files under the test's folder. */
  private long areas() throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).count();
    }
  }
}
