package org.parl.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.XmlConfigBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Builds the Hazelcast configuration of a node (failures are {@link RuntimeException}s with one
 * sentence): the settings file ({@code config/parl-hazelcast.xml}
 * or a replacement) plus what parl decides per node (cluster name, bind address, member to join,
 * role, lite membership, the Java deserialisation filter: {@link DeserialisationFilter}).
 *
 * <p>The configuration is always passed explicitly: vertx-hazelcast falls back to a multicast
 * default when it finds none, which would let unrelated clusters on a network find each other.
 */
public final class HazelcastSettings {

  public static final String CONFIG_ENV = "PARL_HAZELCAST_CONFIG";
  private static final String RESOURCE = "parl-hazelcast.xml";

  private HazelcastSettings() {}

  /**
   * @param configFile a settings file to use instead of the default one, or null
   * @param clusterName unique per cluster, so that two clusters on one host never merge
   * @param host the interface to bind and to advertise
   * @param join the {@code host:port} of a member to join, or null to start a new cluster
   * @param role the value of {@link Addresses#ROLE_ATTRIBUTE}
   * @param lite true for members that hold no data (monitors)
   */
  public static Config build(Path configFile, String clusterName, String host, String join, String role, boolean lite) {
    Config config = load(configFile);
    config.setClusterName(clusterName);
    config.setLiteMember(lite);
    config.getMemberAttributeConfig().setAttribute(Addresses.ROLE_ATTRIBUTE, role);
    NetworkConfig network = config.getNetworkConfig();
    network.setPort(0).setPortAutoIncrement(false);
    network.setPublicAddress(null);
    network.getInterfaces().setEnabled(true).clear().addInterface(host);
    JoinConfig joinConfig = network.getJoin();
    joinConfig.getMulticastConfig().setEnabled(false);
    joinConfig.getAutoDetectionConfig().setEnabled(false);
    joinConfig.getTcpIpConfig().setEnabled(true).clear();
    joinConfig.getTcpIpConfig().addMember(join != null ? join : host);
    config.setProperty("hazelcast.socket.bind.any", "false");
    config.setProperty("hazelcast.phone.home.enabled", "false");
    config.getSerializationConfig().setJavaSerializationFilterConfig(DeserialisationFilter.config());
    return config;
  }

  /**
   * The settings file: the option, else {@code $PARL_HAZELCAST_CONFIG}, else the installation's
   * {@code config/parl-hazelcast.xml} (so that edits there apply without a rebuild), else the
   * copy inside the jar.
   */
  private static Config load(Path configFile) {
    Path file = configFile;
    if (file == null && System.getenv(CONFIG_ENV) != null && !System.getenv(CONFIG_ENV).isBlank()) {
      file = Path.of(System.getenv(CONFIG_ENV));
    }
    String root = System.getProperty("parl.root");
    if (file == null && root != null && Files.isRegularFile(Path.of(root, "config", RESOURCE))) {
      file = Path.of(root, "config", RESOURCE);
    }
    String name = file != null ? file.toString() : RESOURCE;
    try (InputStream in = file != null ? Files.newInputStream(file) : resource()) {
      return new XmlConfigBuilder(in).build();
    } catch (java.nio.file.NoSuchFileException e) {
      throw new IllegalArgumentException("the Hazelcast settings file " + name + " does not exist", e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the Hazelcast settings " + name + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      String why = String.valueOf(e.getMessage()).lines().findFirst().orElse("?");
      throw new IllegalArgumentException("the Hazelcast settings file " + name + " is not valid: " + why, e);
    }
  }

  private static InputStream resource() throws IOException {
    InputStream in = HazelcastSettings.class.getClassLoader().getResourceAsStream(RESOURCE);
    if (in == null) {
      throw new IOException(RESOURCE + " is missing from the classpath");
    }
    return in;
  }
}
