package org.parl.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar's manifest ("dev" when run from classes). */
public final class VersionProvider implements IVersionProvider {

  public static String version() {
    String v = VersionProvider.class.getPackage().getImplementationVersion();
    return v != null ? v : "dev";
  }

  @Override
  public String[] getVersion() {
    return new String[] {"parl " + version()};
  }
}
