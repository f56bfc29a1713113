package org.parl.it;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The relay of {@link RelayIT} as a program on a host of its own: {@code ADDRESS}. A
 * {@link SocksRelay} on ADDRESS (a free port); prints {@code RELAY ADDRESS:PORT}, then
 * {@code LINK n from HOST:PORT to HOST:PORT} for each connection it relays and {@code END n: the
 * job|client ended the connection} when one side ends it. Reads commands on its standard input, one
 * a line, each answered by a line once done:
 * <ul>
 *   <li>{@code forge N MARKER}: injects into link N a CALL of {@code markThenSleep(MARKER, 0)}
 *       forged in clear ({@code FORGED N ...});
 *   <li>{@code mark N}: remembers where the client's bytes on link N are now ({@code MARKED N});
 *   <li>{@code replay N}: injects again what the client sent on link N since the mark
 *       ({@code REPLAYED N ...});
 *   <li>{@code alter N}: flips a bit of the client's next write on link N ({@code ALTERING N}).
 * </ul>
 * Ends when its standard input closes (or when it is killed).
 */
public final class RelayProgram {

  private RelayProgram() {}

  public static void main(String[] args) throws Exception {
    try (SocksRelay relay = new SocksRelay(InetAddress.getByName(args[0]), RelayProgram::opened)) {
      System.out.println("RELAY " + relay.address().getAddress().getHostAddress() + ":" + relay.address().getPort());
      BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = commands.readLine(); line != null; line = commands.readLine()) {
        List<String> words = List.of(line.strip().split(" ", 3));
        try {
          System.out.println(run(relay, words));
        } catch (Exception e) {
          System.out.println("ERROR " + line + ": " + e);
        }
      }
    }
  }

  private static String run(SocksRelay relay, List<String> words) throws Exception {
    SocksRelay.Link link = relay.links().get(Integer.parseInt(words.get(1)));
    switch (words.get(0)) {
      case "forge" -> {
        byte[] call = SocksRelay.forgedCall(words.get(2));
        link.inject(call);
        return "FORGED " + link.index() + " injected a CALL of " + call.length + " bytes in clear";
      }
      case "mark" -> {
        link.mark();
        return "MARKED " + link.index();
      }
      case "replay" -> {
        byte[] sent = link.sinceMark();
        link.inject(sent);
        return "REPLAYED " + link.index() + " injected again the " + sent.length + " bytes the client sent since the mark";
      }
      case "alter" -> {
        link.alterNext();
        return "ALTERING " + link.index();
      }
      default -> throw new IllegalArgumentException("unknown command");
    }
  }

  private static void opened(SocksRelay.Link link) {
    System.out.println("LINK " + link.index() + " from " + text(link.from()) + " to " + text(link.to()));
    link.ended().thenAccept(side -> System.out.println("END " + link.index() + ": the " + side + " ended the connection"));
  }

  private static String text(SocketAddress a) {
    InetSocketAddress i = (InetSocketAddress) a;
    return i.getAddress().getHostAddress() + ":" + i.getPort();
  }
}
