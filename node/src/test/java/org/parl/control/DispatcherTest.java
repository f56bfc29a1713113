package org.parl.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.parl.control.ControlReply.Done;
import org.parl.control.ControlReply.QueueFigures;
import org.parl.control.JobCenterRequest.EndJob;
import org.parl.control.JobCenterRequest.GetQueue;
import org.parl.control.JobCenterRequest.GetSnapshot;
import org.parl.internal.wire.BadMessageException;
import org.parl.internal.wire.ErrorKind;
import org.slf4j.LoggerFactory;

@ExtendWith(VertxExtension.class)
class DispatcherTest {

  private static final String ADDRESS = "test.dispatcher";

  private Vertx vertx;
  private final Dispatcher dispatcher = new Dispatcher("the test receiver", LoggerFactory.getLogger(DispatcherTest.class))
      .on(GetQueue.class, r -> Future.succeededFuture(new QueueFigures(2, 5)))
      .on(EndJob.class, r -> switch (r.jobId()) {
        case "boom" -> throw new IllegalStateException("a bug");
        case "bad" -> throw new BadMessageException("field 'x' is wrong");
        case "gone" -> Failures.future(ErrorKind.NOT_FOUND, "no job gone");
        default -> Future.succeededFuture(new Done());
      });

  @BeforeEach
  void start(Vertx vertx) throws Exception {
    this.vertx = vertx;
    ControlCodec.register(vertx.eventBus());
    vertx.eventBus().consumer(ADDRESS, dispatcher::handle).completion().await(5, TimeUnit.SECONDS);
  }

  private <R extends ControlReply> R ask(Request<R> request) throws Exception {
    return ControlBus.request(vertx, ADDRESS, request, 5_000).await(5, TimeUnit.SECONDS);
  }

  private ReplyException failure(Future<?> f) throws Exception {
    try {
      f.await(5, TimeUnit.SECONDS);
    } catch (ReplyException e) {
      return e;
    }
    throw new AssertionError("expected a failure, got " + f.result());
  }

  @Test
  void handlersAreFoundByTheRequestsType() throws Exception {
    assertEquals(new QueueFigures(2, 5), ask(new GetQueue()));
    assertEquals(new Done(), ask(new EndJob("j", "w", null, false)));
    assertEquals(java.util.List.of("GetQueue", "EndJob"), dispatcher.handled());
  }

  @Test
  void failuresCarryTheirKind() throws Exception {
    assertEquals(ErrorKind.NOT_FOUND.code(),
        failure(ControlBus.request(vertx, ADDRESS, new EndJob("gone", "w", null, false), 5_000)).failureCode());
    ReplyException bad = failure(ControlBus.request(vertx, ADDRESS, new EndJob("bad", "w", null, false), 5_000));
    assertEquals(ErrorKind.INVALID.code(), bad.failureCode());
    assertEquals("field 'x' is wrong", bad.getMessage());
    ReplyException bug = failure(ControlBus.request(vertx, ADDRESS, new EndJob("boom", "w", null, false), 5_000));
    assertEquals(ErrorKind.INTERNAL.code(), bug.failureCode());
    assertTrue(bug.getMessage().contains("a bug"), bug.getMessage());
  }

  @Test
  void whatNoHandlerTakesIsInvalid() throws Exception {
    ReplyException other = failure(ControlBus.request(vertx, ADDRESS, new GetSnapshot(), 5_000));
    assertEquals(ErrorKind.INVALID.code(), other.failureCode());
    assertEquals("the test receiver does not handle GetSnapshot; it handles [GetQueue, EndJob]", other.getMessage());
    for (Object raw : new Object[] {"text", Buffer.buffer(new byte[] {1, 2}), new JsonObject().put("type", "GetQueue"), 42}) {
      ReplyException e = failure(vertx.eventBus().request(ADDRESS, raw, new DeliveryOptions().setSendTimeout(5_000)));
      assertEquals(ErrorKind.INVALID.code(), e.failureCode(), String.valueOf(raw));
      assertTrue(e.getMessage().startsWith("the test receiver takes typed control messages"), e.getMessage());
    }
  }

  /** A body that fails to decode when read, as a clustered message's does. */
  @Test
  void aBodyThatDoesNotDecodeIsAnsweredInvalid() {
    FakeMessage msg = new FakeMessage("{\"type\":\"EndJob\",\"jobId\":42}", "reply.here");
    dispatcher.handle(msg);
    assertInstanceOf(ReplyException.class, msg.reply);
    ReplyException e = (ReplyException) msg.reply;
    assertEquals(ErrorKind.INVALID.code(), e.failureCode());
    assertEquals("field 'jobId' must be a string, got Integer \"42\"", e.getMessage());

    FakeMessage dropped = new FakeMessage("garbage", null);
    dispatcher.handle(dropped);
    assertNull(dropped.reply, "a message without reply address gets none, and nothing throws");
  }

  private static final class FakeMessage implements Message<Object> {
    private final Buffer wire;
    private final String replyAddress;
    Object reply;

    FakeMessage(String json, String replyAddress) {
      byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
      this.wire = Buffer.buffer().appendInt(bytes.length).appendBytes(bytes);
      this.replyAddress = replyAddress;
    }

    @Override
    public String address() {
      return ADDRESS;
    }

    @Override
    public MultiMap headers() {
      return MultiMap.caseInsensitiveMultiMap();
    }

    @Override
    public Object body() {
      return new ControlCodec().decodeFromWire(0, wire);
    }

    @Override
    public String replyAddress() {
      return replyAddress;
    }

    @Override
    public boolean isSend() {
      return true;
    }

    @Override
    public void reply(Object message, DeliveryOptions options) {
      reply = message;
    }

    @Override
    public <R> Future<Message<R>> replyAndRequest(Object message, DeliveryOptions options) {
      throw new UnsupportedOperationException();
    }
  }
}
