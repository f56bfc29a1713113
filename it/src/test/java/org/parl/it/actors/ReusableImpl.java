package org.parl.it.actors;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The actor of {@link Reusable}. */
public class ReusableImpl implements Reusable {

  private static int counter;

  public ReusableImpl() {}

  @Override
  public int bumpStatic() {
    return ++counter;
  }

  @Override
  public long pid() {
    return ProcessHandle.current().pid();
  }

  @Override
  public String env(String name) {
    return System.getenv(name);
  }

  @Override
  public void print(String line) {
    System.out.println(line);
  }

  @Override
  public void write(String name, String text) {
    try {
      Files.writeString(Path.of(name), text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public boolean exists(String name) {
    return Files.exists(Path.of(name));
  }

  @Override
  public void leaveThread() {
    Thread t = new Thread(() -> {
      try {
        new CountDownLatch(1).await(10, TimeUnit.MINUTES);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "left-behind");
    t.start();
  }
}
