package org.parl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code parl} with no command names every registered command. */
class CommandListTest {

  @Test
  void noCommandListsEveryRegisteredCommand() {
    PrintStream saved = System.err;
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    int code;
    try {
      code = Main.run();
    } finally {
      System.setErr(saved);
    }
    String message = err.toString(StandardCharsets.UTF_8);
    assertEquals(2, code);
    var names = new CommandLine(new ParlCommand()).getSubcommands().keySet();
    assertTrue(names.containsAll(java.util.List.of("drain", "undrain", "run")), names.toString());
    for (String name : names) {
      assertTrue(message.matches("(?s).*name a command: .*\\b" + name + "\\b.*"), name + " missing from: " + message);
    }
  }
}
