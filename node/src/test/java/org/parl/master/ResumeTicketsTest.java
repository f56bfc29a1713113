package org.parl.master;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.vertx.core.Vertx;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.parl.AuthenticationException;
import org.parl.cluster.Addresses;

class ResumeTicketsTest {

  private final Vertx vertx = Vertx.vertx();
  private final ResumeTickets tickets = new ResumeTickets(vertx);

  @AfterEach
  void close() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  private String refusal(String clientId, String ticket) {
    Exception e = assertThrows(Exception.class, () -> tickets.check(clientId, ticket).await(10, TimeUnit.SECONDS));
    Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
    assertInstanceOf(AuthenticationException.class, cause);
    return cause.getMessage();
  }

  @Test
  void onlyTheTicketGivenToAClientResumesItsSession() throws Exception {
    String ticket = tickets.issue("c-1").await(10, TimeUnit.SECONDS);
    assertEquals(64, ticket.length());
    String stored = vertx.sharedData().<String, String>getAsyncMap(Addresses.CLIENT_TICKETS)
        .compose(m -> m.get("c-1")).await(10, TimeUnit.SECONDS);
    assertEquals(ResumeTickets.hash(ticket), stored, "the map holds the ticket's hash, never the ticket");
    tickets.check("c-1", ticket).await(10, TimeUnit.SECONDS);

    assertEquals("the resume ticket for client c-1 is wrong: a session is resumed only by the program that opened it",
        refusal("c-1", "00".repeat(32)));
    assertEquals("client c-1's session is resumed only with the resume ticket its master gave it, and this hello has none",
        refusal("c-1", null));
    String other = tickets.issue("c-2").await(10, TimeUnit.SECONDS);
    assertEquals("the resume ticket for client c-1 is wrong: a session is resumed only by the program that opened it",
        refusal("c-1", other), "another client's ticket is no key to this one");

    tickets.forget("c-1");
    assertEquals("client c-1 has no session to resume: it ended, or was not resumed within 60 s of its master leaving",
        refusal("c-1", ticket));
  }
}
