package org.parl.it.actors;

/** An actor that echoes primitive arrays, to test the same-host shared-memory path. */
public interface BigArrays {

  float[] floats(float[] a);

  double[] doubles(double[] a);

  int[] ints(int[] a);

  long[] longs(long[] a);

  short[] shorts(short[] a);

  byte[] bytes(byte[] a);

  /** Two arrays in one call, one made of both in the answer. */
  float[] concat(float[] a, float[] b);

  /** A checksum of what arrived, computed by the job: the request direction checked on its own. */
  long sum(int[] a);

  /** The names of the shared areas this job process has mapped (from /proc/self/maps). */
  java.util.List<String> sharedMappings();

  int pid();
}
