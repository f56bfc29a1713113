package org.parl.monitor;

import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * The page a browser without a session gets: it asks for the cluster token (a form posting to
 * {@code /login}) and says where the token is. A template, {@code webroot/token.html}, read once
 * when the monitor starts (off the event loop), filled per request with escaped text.
 */
final class TokenPage {

  static final String RESOURCE = "webroot/token.html";

  private final String template;

  TokenPage(String template) {
    this.template = template;
  }

  static Future<TokenPage> load(Vertx vertx) {
    return vertx.fileSystem().readFile(RESOURCE).map(b -> new TokenPage(b.toString()));
  }

  /**
   * @param message why the request was refused (empty for none)
   * @param next where to go after logging in: the page that was asked for
   */
  String render(String message, String next) {
    return template.replace("{{message}}", escape(message)).replace("{{next}}", escape(next));
  }

  static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }
}
