package org.parl.node;

import org.parl.net.HostPort;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * One request to a master's gateway from a command-line process (no Vert.x needed): used by
 * workers and monitors to learn how to join, and by {@code parl status}.
 */
public final class BlockingGateway {

  private static final int CONNECT_TIMEOUT_MS = 5_000;
  private static final int READ_TIMEOUT_MS = 10_000;

  private BlockingGateway() {}

  /**
   * Says hello with the given role and returns the master's answer.
   *
   * @throws NodeFailure when nothing answers or the answer is not a parl master's
   */
  public static JsonObject hello(HostPort master, String role) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(master.host(), master.port()), CONNECT_TIMEOUT_MS);
      s.setSoTimeout(READ_TIMEOUT_MS);
      OutputStream out = s.getOutputStream();
      out.write((new JsonObject().put("op", "hello").put("id", 1).put("role", role).encode() + "\n")
          .getBytes(StandardCharsets.UTF_8));
      out.flush();
      String line = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)).readLine();
      if (line == null) {
        throw notParl(master);
      }
      JsonObject answer = new JsonObject(line);
      if (answer.getValue("error") instanceof JsonObject err) {
        throw new NodeFailure("the master at " + master + " refused: " + err.getString("message"));
      }
      if (!(answer.getValue("ok") instanceof JsonObject ok)) {
        throw notParl(master);
      }
      return ok;
    } catch (ConnectException e) {
      throw new NodeFailure("no parl master answers at " + master + " (connection refused): start one with "
          + "'bin/parl master --port " + master.port() + "' first, or check --address");
    } catch (SocketTimeoutException e) {
      throw new NodeFailure("no parl master answers at " + master + " (timed out): check --address and that the master runs");
    } catch (DecodeException | ClassCastException e) {
      throw notParl(master);
    } catch (IOException e) {
      throw new NodeFailure("cannot reach a parl master at " + master + ": " + e.getMessage());
    }
  }

  private static NodeFailure notParl(HostPort master) {
    return new NodeFailure(master + " does not answer like a parl master: check --address");
  }
}
