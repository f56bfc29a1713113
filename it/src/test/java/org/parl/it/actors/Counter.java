package org.parl.it.actors;

import java.util.List;
import java.util.Map;

/** The remote API of the test actor. */
public interface Counter {

  int add(int x);

  int value();

  void reset();

  String env(String name);

  float[] echo(float[] data);

  double[] scale(double[] data, double factor);

  byte[] bytes(int n);

  Point move(Point p, int dx);

  List<Point> points(int n);

  Map<String, List<Integer>> groups(List<String> names);

  void fail(String message);

  String readFile(String name);

  void print(String line);

  long allocate(int mb);

  void sleep(long ms);

  /** Creates the file {@code marker}, then sleeps: a test that sees the file knows the call is running. */
  void markThenSleep(String marker, long ms);

  int pid();

  /**
   * Starts processes that outlive a careless actor: a child ({@code sleep 600}), a grandchild left
   * to itself by a shell that exits, and one that also left the job's session ({@code setsid}).
   *
   * @return their pids
   */
  List<Long> spawnTree();

  /** Starts a child process that holds about {@code mb} MiB resident and sleeps; returns its pid. */
  long spawnHog(int mb);

  void exit(int status);

  String describe(Object o);

  /** A small API for actors that need little. */
  interface Simple {
    int value();
  }
}
