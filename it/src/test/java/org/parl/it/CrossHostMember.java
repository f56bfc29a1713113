package org.parl.it;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A {@link TestMember} run inside a host of {@link CrossHostIT}'s bed, where the test JVM cannot
 * reach: {@code MASTER_ADDRESS HOST}, the cluster token from {@code $PARL_HOME/token}. Joins with its
 * member on {@code HOST}, prints READY, then answers each line {@code SNAPSHOT} of its standard input
 * with {@code SNAPSHOT <n> <the JobCenter's snapshot as one line of JSON>}, n counting from 1; leaves
 * at the end of its input (or on {@code QUIT}). Runs on the node jar's class path with the test classes.
 */
public final class CrossHostMember {

  private CrossHostMember() {}

  public static void main(String[] args) throws Exception {
    String token = Files.readString(Path.of(System.getenv("PARL_HOME"), "token")).strip();
    try (TestMember member = TestMember.join(args[0], token, args[1]);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      System.out.println("READY");
      System.out.flush();
      int answered = 0;
      for (String line = in.readLine(); line != null && !line.equals("QUIT"); line = in.readLine()) {
        if (line.equals("SNAPSHOT")) {
          String json;
          try {
            json = member.snapshot().encode();
          } catch (Exception e) {
            json = "{\"error\":\"" + String.valueOf(e.getMessage()).replace('"', '\'').replace('\n', ' ') + "\"}";
          }
          answered++;
          System.out.println("SNAPSHOT " + answered + " " + json);
          System.out.flush();
        }
      }
    }
    System.out.println("LEFT");
    System.out.flush();
  }
}
