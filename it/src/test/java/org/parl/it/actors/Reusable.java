package org.parl.it.actors;

/** The remote API of an actor that shows what it finds of an earlier actor in its process. */
public interface Reusable {

  /** Its class's static counter, incremented: 1 in a process where no actor of this class ran before. */
  int bumpStatic();

  long pid();

  String env(String name);

  /** Prints a line on its standard output (its job's log). */
  void print(String line);

  /** Writes a file in the working directory. */
  void write(String name, String text);

  boolean exists(String name);

  /** Starts a non-daemon thread that waits ten minutes. */
  void leaveThread();
}
