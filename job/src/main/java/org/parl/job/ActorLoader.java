package org.parl.job;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * An actor's class loader: the job's own loader first (the JDK, the API, the wire format,
 * Jackson), then the actor's shipped code, then the installation's other jars ({@link Libraries}).
 * A client ships none of the jars the cluster has, so an actor's classes are found in its code
 * without opening the libraries; they are opened only for what the actor needs of them.
 */
final class ActorLoader extends URLClassLoader {

  static {
    registerAsParallelCapable();
  }

  private final Libraries libraries;

  ActorLoader(URL[] code, Libraries libraries) {
    super("actor", code, ActorLoader.class.getClassLoader());
    this.libraries = libraries;
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    try {
      return super.findClass(name);
    } catch (ClassNotFoundException e) {
      return libraries.loadClass(name);
    }
  }

  @Override
  public URL findResource(String name) {
    URL own = super.findResource(name);
    return own != null ? own : libraries.findResource(name);
  }

  @Override
  public Enumeration<URL> findResources(String name) throws IOException {
    List<URL> all = new ArrayList<>(Collections.list(super.findResources(name)));
    all.addAll(Collections.list(libraries.findResources(name)));
    return Collections.enumeration(all);
  }
}
