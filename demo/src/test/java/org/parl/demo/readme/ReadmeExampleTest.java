package org.parl.demo.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The README's Java example is this package's code, between the {@code readme:} markers of its three
 * files, in order: the example that the README shows is the one that compiles and that an IT runs.
 */
class ReadmeExampleTest {

  private static final Path SOURCES = Path.of("src/main/java/org/parl/demo/readme");
  /** The line before the README's block. */
  static final String MARKER = "<!-- readme-example: demo/src/main/java/org/parl/demo/readme, kept equal by ReadmeExampleTest -->";

  @Test
  void theReadmeShowsTheExampleThatCompiles() throws IOException {
    List<String> parts = new ArrayList<>();
    for (String file : List.of("Counter.java", "CounterImpl.java", "ReadmeExample.java")) {
      parts.add(region(Files.readAllLines(SOURCES.resolve(file))));
    }
    assertEquals(String.join("\n\n", parts), readmeBlock(Files.readAllLines(Path.of("../README.md"))),
        "README.md's Java example must be the code between the readme: markers of " + SOURCES);
  }

  /** The lines between {@code // readme:start} and {@code // readme:end}, less their common indentation. */
  private static String region(List<String> lines) {
    int start = indexOf(lines, "// readme:start", 0) + 1;
    List<String> region = lines.subList(start, indexOf(lines, "// readme:end", start));
    int indent = region.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length())
        .min().orElse(0);
    return String.join("\n", region.stream().map(l -> l.isBlank() ? "" : l.substring(indent)).toList());
  }

  /** The fenced Java block right after {@link #MARKER}. */
  private static String readmeBlock(List<String> lines) {
    int open = indexOf(lines, MARKER, 0) + 1;
    assertEquals("```java", lines.get(open), "the README's example block opens right after its marker");
    return String.join("\n", lines.subList(open + 1, indexOf(lines, "```", open + 1)));
  }

  private static int indexOf(List<String> lines, String line, int from) {
    for (int i = from; i < lines.size(); i++) {
      if (lines.get(i).strip().equals(line)) {
        return i;
      }
    }
    throw new AssertionError("no line '" + line + "' after line " + from);
  }
}
