package org.parl.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.hazelcast.config.JavaSerializationFilterConfig;
import com.hazelcast.config.SerializationConfig;
import com.hazelcast.core.HazelcastInstanceNotActiveException;
import com.hazelcast.internal.cluster.impl.ClusterTopologyChangedException;
import com.hazelcast.internal.partition.PartitionStateVersionMismatchException;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.nio.serialization.HazelcastSerializationException;
import com.hazelcast.spi.exception.PartitionMigratingException;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.BadAttributeValueExpException;
import org.junit.jupiter.api.Test;

class DeserialisationFilterTest {

  /** Writes as any member would; reads as a parl member does. */
  private static final InternalSerializationService WRITER = service(null);
  private static final InternalSerializationService PARL = service(DeserialisationFilter.config());

  private static InternalSerializationService service(JavaSerializationFilterConfig filter) {
    return new DefaultSerializationServiceBuilder()
        .setConfig(new SerializationConfig().setJavaSerializationFilterConfig(filter)).build();
  }

  private static Object roundTrip(Object o) {
    Data data = WRITER.toData(o);
    return PARL.toObject(data);
  }

  @Test
  void hazelcastsErrorResponsesStillCross() {
    assertInstanceOf(PartitionMigratingException.class, roundTrip(new PartitionMigratingException("migrating")));
    assertInstanceOf(HazelcastInstanceNotActiveException.class, roundTrip(new HazelcastInstanceNotActiveException()));
    // answered to a member that joins while another one joins (two workers started at once)
    assertInstanceOf(ClusterTopologyChangedException.class, roundTrip(new ClusterTopologyChangedException("joining")));
    // answered to a map write sent while a member's death moves partitions (a worker killed)
    assertInstanceOf(PartitionStateVersionMismatchException.class, roundTrip(new PartitionStateVersionMismatchException(3, 4)));
    assertEquals("x", roundTrip("x"), "strings (parl's maps) never use Java serialisation");
  }

  @Test
  void javaGadgetsAreRefused() {
    // the entry point of several well-known gadget chains, and any other JDK class
    for (Object gadget : new Object[] {new BadAttributeValueExpException("x"), new AtomicLong(5)}) {
      HazelcastSerializationException e = assertThrows(HazelcastSerializationException.class, () -> roundTrip(gadget));
      assertTrue(String.valueOf(e.getCause()).contains("is not allowed"), String.valueOf(e.getCause()));
    }
  }

  @Test
  void everyNodesSettingsCarryTheFilter() {
    JavaSerializationFilterConfig f = HazelcastSettings.build(null, "parl-x", "127.0.0.1", null, "test", true)
        .getSerializationConfig().getJavaSerializationFilterConfig();
    assertEquals(DeserialisationFilter.config(), f);
    assertTrue(f.isDefaultsDisabled());
  }
}
