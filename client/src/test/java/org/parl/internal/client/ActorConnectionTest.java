package org.parl.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.vertx.core.Future;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.parl.ActorLostException;
import org.parl.ParlException;
import org.parl.RemoteException;
import org.parl.internal.wire.ErrorKind;
import org.parl.internal.wire.FrameBuffer;
import org.parl.internal.wire.Frames;

/**
 * The read hand-off of {@link ActorConnection} against a fake job on a real loopback socket: who
 * reads which answer, answers in any order, and a connection that ends while callers wait.
 */
class ActorConnectionTest {

  private static final AtomicInteger CONNECTIONS = new AtomicInteger();

  /** The name of this test's reader thread. */
  private final String reader = "parl-actor-test-" + CONNECTIONS.incrementAndGet();
  private final Map<String, String> decodedOn = new ConcurrentHashMap<>();
  private final ActorConnection.Decoder<String> decoder = (bytes, length) -> {
    String text = new String(bytes, 0, length, StandardCharsets.UTF_8);
    decodedOn.put(text, Thread.currentThread().getName());
    return text;
  };
  private final Map<String, Thread> threads = new ConcurrentHashMap<>();
  private final List<AutoCloseable> closing = new ArrayList<>();

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable c : closing) {
      c.close();
    }
  }

  private FakeJob job(boolean echo) throws Exception {
    FakeJob job = new FakeJob(echo);
    closing.add(job);
    return job;
  }

  private ActorConnection connect(FakeJob job) throws Exception {
    ActorConnection conn = job.connect();
    closing.add(conn::closeSocket);
    conn.armReader(reader.substring("parl-actor-".length()), e -> new ActorLostException("the fake job went away"));
    return conn;
  }

  private static FrameBuffer payload(String text) {
    return FrameBuffer.of(text.getBytes(StandardCharsets.UTF_8));
  }

  /** A blocking call on its own thread, as a blocking proxy makes it. */
  private CompletableFuture<String> blockingCall(ActorConnection conn, String name, String text) {
    CompletableFuture<String> outcome = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        outcome.complete(conn.call(Frames.CALL, payload(text), decoder).await(10, TimeUnit.SECONDS));
      } catch (Throwable e) {
        outcome.completeExceptionally(e);
      }
    }, name);
    t.setDaemon(true);
    t.start();
    threads.put(name, t);
    return outcome;
  }

  /** Waits until a thread's stack shows the given state; a stack is the only witness of who reads. */
  private static void awaitStack(Thread t, String what, Predicate<List<StackTraceElement>> state) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!state.test(Arrays.asList(t.getStackTrace()))) {
      if (System.nanoTime() > deadline) {
        fail(t.getName() + " is not " + what + " after 5 s: " + Arrays.asList(t.getStackTrace()));
      }
      Thread.sleep(1);
    }
  }

  private static boolean reading(List<StackTraceElement> stack) {
    return stack.stream().anyMatch(e -> e.getClassName().equals(AnswerReader.class.getName()) && e.getMethodName().equals("readWhile"));
  }

  /** Holds the read role: it is inside {@code readWhile}, which runs only with the role held. */
  private void awaitReading(String thread) throws InterruptedException {
    awaitStack(threads.get(thread), "reading", ActorConnectionTest::reading);
  }

  /** Waits for its answer without reading. */
  private void awaitWaiting(String thread) throws InterruptedException {
    Thread t = threads.get(thread);
    awaitStack(t, "waiting", s -> !reading(s) && (t.getState() == Thread.State.TIMED_WAITING || t.getState() == Thread.State.WAITING));
  }

  /** Starts the reader thread the way a program does, with an asynchronous call; returns once it is idle again. */
  private void startReader(ActorConnection conn, FakeJob job) throws Exception {
    Future<String> async = conn.send(Frames.CALL, payload("start"), decoder);
    job.answer(job.next());
    assertEquals("start", get(async));
    awaitReaderIdle();
  }

  private boolean readerExists() {
    return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(reader));
  }

  /** The reader thread is parked because no request is pending (not waiting for the read role). */
  private void awaitReaderIdle() throws InterruptedException {
    Thread t = Thread.getAllStackTraces().keySet().stream().filter(x -> x.getName().equals(reader)).findFirst()
        .orElseThrow();
    awaitStack(t, "parked", s -> {
      for (int i = 1; i < s.size(); i++) {
        if (s.get(i).getClassName().equals(AnswerReader.class.getName())) {
          return s.get(i).getMethodName().equals("readLoop") && s.get(i - 1).getClassName().equals(LockSupport.class.getName());
        }
      }
      return false;
    });
  }

  private static <T> T get(CompletableFuture<T> f) throws Exception {
    return f.get(10, TimeUnit.SECONDS);
  }

  /** {@link #get(Future)} for lambdas, which cannot throw checked exceptions. */
  private static <T> T await(Future<T> f) {
    try {
      return f.await(10, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("no answer within 10 s", e);
    }
  }

  private static <T> T get(Future<T> f) throws Exception {
    return f.toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static Throwable failure(CompletableFuture<?> f) throws Exception {
    try {
      f.get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    }
    return fail("succeeded, though it should have failed");
  }

  private static Throwable failure(Future<?> f) throws Exception {
    return failure(f.toCompletionStage().toCompletableFuture());
  }

  @Test
  void aBlockingCallerReadsItsOwnAnswerAndThoseOfAsyncCallersMeanwhile() throws Exception {
    FakeJob job = job(false);
    ActorConnection conn = connect(job);
    startReader(conn, job);
    CompletableFuture<String> b = blockingCall(conn, "caller-b", "b");
    Frames.Frame fb = job.next();
    awaitReading("caller-b");
    Future<String> a1 = conn.send(Frames.CALL, payload("a1"), decoder);
    Future<String> a2 = conn.send(Frames.CALL, payload("a2"), decoder);
    Frames.Frame fa1 = job.next();
    Frames.Frame fa2 = job.next();
    job.answer(fa1);
    job.answer(fb);
    assertEquals("b", get(b));
    assertEquals("a1", get(a1));
    assertEquals("caller-b", decodedOn.get("b"), "the caller read its own answer");
    assertEquals("caller-b", decodedOn.get("a1"), "and the async answer that came before it");
    job.answer(fa2);
    assertEquals("a2", get(a2));
    assertEquals(reader, decodedOn.get("a2"), "the caller woke the reader thread for what was still pending");
  }

  @Test
  void theReadRolePassesFromOneCallerToTheReaderThreadAndBack() throws Exception {
    FakeJob job = job(false);
    ActorConnection conn = connect(job);
    startReader(conn, job);
    CompletableFuture<String> first = blockingCall(conn, "caller-1", "first");
    Frames.Frame f1 = job.next();
    awaitReading("caller-1");
    CompletableFuture<String> second = blockingCall(conn, "caller-2", "second");
    Frames.Frame f2 = job.next();
    awaitWaiting("caller-2");
    job.answer(f1);
    assertEquals("first", get(first));
    job.answer(f2);
    assertEquals("second", get(second));
    assertEquals("caller-1", decodedOn.get("first"));
    assertEquals(reader, decodedOn.get("second"), "the first caller handed the read role to the reader thread");

    awaitReaderIdle();
    CompletableFuture<String> third = blockingCall(conn, "caller-3", "third");
    job.answer(job.next());
    assertEquals("third", get(third));
    assertEquals("caller-3", decodedOn.get("third"), "an idle reader thread leaves the read to the caller");
  }

  @Test
  void answersOutOfOrderReachTheirOwnCallers() throws Exception {
    FakeJob job = job(false);
    ActorConnection conn = connect(job);
    List<Future<String>> answers = new ArrayList<>();
    List<Frames.Frame> requests = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      answers.add(conn.send(Frames.CALL, payload("call-" + i), decoder));
    }
    for (int i = 0; i < 64; i++) {
      requests.add(job.next());
    }
    Collections.shuffle(requests, new Random(7));
    Frames.Frame failed = requests.remove(0);
    job.fail(failed, ErrorKind.REMOTE, "Counter.add threw");
    for (Frames.Frame f : requests) {
      job.answer(f);
    }
    for (int i = 0; i < 64; i++) {
      String text = "call-" + i;
      if (new String(failed.payload(), StandardCharsets.UTF_8).equals(text)) {
        assertInstanceOf(RemoteException.class, failure(answers.get(i)));
      } else {
        assertEquals(text, get(answers.get(i)));
      }
    }
  }

  @Test
  void anErrorThatCannotBeReadFailsItsCallWithTheReason() throws Exception {
    FakeJob job = job(false);
    ActorConnection conn = connect(job);
    Future<String> bad = conn.send(Frames.CALL, payload("bad"), decoder);
    job.fail(job.next(), "{\"type\":\"Failure\",\"kind\":\"NOPE\"}".getBytes(StandardCharsets.UTF_8));
    Throwable t = failure(bad);
    assertEquals(ParlException.class, t.getClass());
    assertTrue(t.getMessage().contains("cannot be read: field 'kind' must be one of"), t.getMessage());
    Future<String> next = conn.send(Frames.CALL, payload("next"), decoder);
    job.answer(job.next());
    assertEquals("next", get(next), "the connection still serves");
  }

  @Test
  void pipelinedCallsFromManyThreadsEachGetTheirOwnAnswer() throws Exception {
    ActorConnection conn = connect(job(true));
    List<CompletableFuture<Void>> callers = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      String name = "pipelined-" + t;
      callers.add(CompletableFuture.runAsync(() -> {
        List<Future<String>> async = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
          String text = name + "-" + i;
          if (i % 2 == 0) {
            assertEquals(text, await(conn.call(Frames.CALL, payload(text), decoder)));
          } else {
            async.add(conn.send(Frames.CALL, payload(text + "-async"), decoder));
          }
        }
        for (int i = 0; i < async.size(); i++) {
          assertEquals(name + "-" + (2 * i + 1) + "-async", await(async.get(i)));
        }
      }));
    }
    CompletableFuture.allOf(callers.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
  }

  @Test
  void everyWaiterFailsWhenTheJobGoesAway() throws Exception {
    FakeJob job = job(false);
    ActorConnection conn = connect(job);
    startReader(conn, job);
    CompletableFuture<String> reading = blockingCall(conn, "caller-reading", "r");
    job.next();
    awaitReading("caller-reading");
    CompletableFuture<String> waiting = blockingCall(conn, "caller-waiting", "w");
    job.next();
    awaitWaiting("caller-waiting");
    List<Future<String>> async = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      async.add(conn.send(Frames.CALL, payload("a" + i), decoder));
      job.next();
    }
    job.dropConnection();
    assertLost(failure(reading));
    assertLost(failure(waiting));
    for (Future<String> a : async) {
      assertLost(failure(a));
    }
    assertTrue(conn.isLost());
    assertLost(failure(conn.send(Frames.CALL, payload("later"), decoder)));
    assertLost(failure(conn.call(Frames.CALL, payload("later"), decoder)));
  }

  @Test
  void aJobThatGoesAwayWhileOnlyTheReaderThreadWaitsFailsItsCallers() throws Exception {
    FakeJob job = job(false);
    ActorConnection conn = connect(job);
    Future<String> a = conn.send(Frames.CALL, payload("a"), decoder);
    job.next();
    CompletableFuture<String> waiting = blockingCall(conn, "caller-waiting", "w");
    job.next();
    job.dropConnection();
    assertLost(failure(a));
    assertLost(failure(waiting));
  }

  @Test
  void aConnectionClosedWhileIdleFailsLaterCalls() throws Exception {
    FakeJob job = job(false);
    ActorConnection conn = connect(job);
    startReader(conn, job);
    conn.closeSocket();
    assertLost(failure(conn.send(Frames.CALL, payload("after"), decoder)));
    assertLost(failure(blockingCall(conn, "caller-after", "after")));
  }

  @Test
  void blockingCallsAloneStartNoReaderThreadAndTheFirstAsyncCallStartsIt() throws Exception {
    FakeJob job = job(false);
    ActorConnection conn = connect(job);
    for (int i = 0; i < 3; i++) {
      CompletableFuture<String> b = blockingCall(conn, "caller-" + i, "b" + i);
      job.answer(job.next());
      assertEquals("b" + i, get(b));
      assertEquals("caller-" + i, decodedOn.get("b" + i));
    }
    assertFalse(readerExists(), "blocking callers read their own answers: no reader thread is needed");
    Future<String> a = conn.send(Frames.CALL, payload("a"), decoder);
    job.answer(job.next());
    assertEquals("a", get(a));
    assertEquals(reader, decodedOn.get("a"), "the first asynchronous call started the reader thread");
  }

  @Test
  void aConnectionClosedBeforeItsReaderWasNeededFailsLaterCallsWithoutStartingIt() throws Exception {
    FakeJob job = job(false);
    ActorConnection conn = connect(job);
    CompletableFuture<String> b = blockingCall(conn, "caller-before", "before");
    job.answer(job.next());
    assertEquals("before", get(b));
    conn.closeSocket();
    assertTrue(conn.isLost(), "closing marks the connection lost at once");
    assertLost(failure(conn.send(Frames.CALL, payload("after"), decoder)));
    assertLost(failure(blockingCall(conn, "caller-after", "after")));
    assertFalse(readerExists(), "no thread was started just to end");
  }

  private static void assertLost(Throwable t) {
    assertInstanceOf(ActorLostException.class, t, String.valueOf(t));
  }
}
