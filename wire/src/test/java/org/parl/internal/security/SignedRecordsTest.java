package org.parl.internal.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class SignedRecordsTest {

  private static final SignedRecords CLUSTER = new SignedRecords(ClusterToken.of("a".repeat(64), "test").derive("k"));
  private static final SignedRecords STRANGER = new SignedRecords(ClusterToken.of("b".repeat(64), "test").derive("k"));
  private static final String RECORD = "{\"address\":\"127.0.0.1:8010\",\"encryptData\":true,\"gpus\":[0,1]}";

  @Test
  void aSignedRecordIsStillJsonAndReadsBackAsItWasSigned() {
    String stored = CLUSTER.sign("parl.cluster", "cluster", RECORD);
    assertTrue(stored.startsWith(RECORD.substring(0, RECORD.length() - 1) + ",\"signature\":\""), stored);
    assertEquals(Optional.of(RECORD), CLUSTER.verify("parl.cluster", "cluster", stored));
    String empty = CLUSTER.sign("m", "k", "{ }");
    assertEquals(Optional.of("{}"), CLUSTER.verify("m", "k", empty));
  }

  @Test
  void tamperedUnsignedMovedOrForeignRecordsAreIgnoredWithOneLogLineEach() {
    Logger logger = (Logger) LoggerFactory.getLogger(SignedRecords.class);
    ListAppender<ILoggingEvent> seen = new ListAppender<>();
    seen.start();
    logger.addAppender(seen);
    try {
      String stored = CLUSTER.sign("parl.cluster", "cluster", RECORD);
      Map<String, String> bad = new LinkedHashMap<>();
      bad.put("flipped", stored.replace("\"encryptData\":true", "\"encryptData\":false"));
      bad.put("unsigned", RECORD);
      bad.put("stranger", STRANGER.sign("parl.cluster", "stranger", RECORD));
      bad.put("moved", stored); // signed for the key "cluster"
      bad.put("not json", "x");
      bad.put("short signature", RECORD.replace("}", ",\"signature\":\"ab\"}"));
      Map<String, String> all = new LinkedHashMap<>(bad);
      all.put("cluster", stored);
      assertEquals(Map.of("cluster", RECORD), CLUSTER.verifyAll("parl.cluster", all));
      assertEquals(Optional.empty(), CLUSTER.verify("parl.jobs", "cluster", stored), "a record moved to another map");
      CLUSTER.verifyAll("parl.cluster", all); // read again, as a monitor does every few seconds: no new lines
      List<String> lines = seen.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
      assertEquals(bad.size() + 1, lines.size(), lines.toString());
      assertTrue(lines.contains("ignored record 'flipped' of map parl.cluster: it is not signed with the cluster token"),
          lines.toString());
    } finally {
      logger.detachAppender(seen);
    }
  }
}
