package org.parl.it.actors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reaches the installation's libraries from inside a job. */
public class LibsImpl implements Libs {

  @Override
  public String log(String line) {
    Logger log = LoggerFactory.getLogger(LibsImpl.class);
    log.info(line);
    return log.getClass().getName();
  }

  @Override
  public String loaderOf(String className) throws ClassNotFoundException {
    return String.valueOf(Class.forName(className, false, LibsImpl.class.getClassLoader()).getClassLoader().getName());
  }
}
