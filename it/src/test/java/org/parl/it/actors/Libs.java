package org.parl.it.actors;

/** A test actor that uses jars of the installation its client does not ship (SLF4J with its binding, Hazelcast). */
public interface Libs {

  /** Logs {@code line} through SLF4J; returns the class of the logger it got. */
  String log(String line);

  /** The name of the class loader that loaded {@code className}. */
  String loaderOf(String className) throws ClassNotFoundException;
}
