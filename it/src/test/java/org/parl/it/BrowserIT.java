package org.parl.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.parl.ParlClient;
import org.parl.RemoteActor;
import org.parl.it.actors.Counter;
import org.parl.it.actors.CounterImpl;
import org.parl.monitor.MonitorHttp;

/**
 * The monitor's pages in a real headless Chromium against a live GPU cluster: the workers page
 * shows each GPU with its id, name and the job using it; the client's jobs page shows a job's log
 * and follows it live. A browser without the token sees only the page that asks for it; a one-time
 * login link lets it in (over HTTPS with the cluster's self-signed certificate, which the browser
 * is told to accept). Screenshots go to {@code target/monitor-*.png}. Each test starts from both
 * workers wholly vacant and makes its actors with a client of its own, closed after it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BrowserIT {

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
  private static final String MARKER = "browser-it: hello from a GPU actor";
  private static final Duration WAIT = Duration.ofSeconds(20);

  private TestCluster cluster;
  private ParlClient parl;
  private String monitor;
  private String loginPath;
  private MonitorHttp http;
  private String w2;
  private WebDriver browser;
  private Path profile;

  @BeforeAll
  void start() throws Exception {
    for (Path p : List.of(CHROMIUM, CHROMEDRIVER)) {
      if (!Files.isExecutable(p)) {
        throw new AssertionError(p + " is missing: run bin/setup-browser (it installs Debian's chromium and chromium-driver)");
      }
    }
    cluster = TestCluster.start(4);
    Matcher printed = cluster.master.awaitLine("monitor: (https://[^/\\s]+)(/login\\?code=\\S+)", TestCluster.START);
    monitor = printed.group(1);
    loginPath = printed.group(2);
    http = new MonitorHttp(monitor, cluster.token());
    w2 = cluster.addWorker(new ParlProcess[1], "--nvidia-smi", cluster.fakeSmi(2).toString());
    browser = chromium();
  }

  /** The state every test starts from: the two workers, wholly vacant; then this test's client. */
  @BeforeEach
  void awaitIdleAndConnect() throws Exception {
    cluster.awaitSnapshot(s -> s.getJsonArray("jobs").isEmpty() && s.getInteger("waiting") == 0
        && s.getJsonArray("workers").size() == 2, WAIT);
    parl = cluster.connect();
  }

  @AfterEach
  void disconnect() {
    parl.close();
  }

  @AfterAll
  void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (cluster != null) {
      cluster.close();
    }
    if (profile != null) {
      try (var files = Files.walk(profile)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Test
  void withoutTheTokenTheBrowserSeesTheTokenPageAndTheLoginLinkLetsItIn() throws Exception {
    browser.get(monitor + "/");
    browser.manage().deleteAllCookies(); // another test may have logged in already
    for (String page : List.of("/", "/clients.html")) {
      browser.get(monitor + page);
      waitFor(d -> !d.findElements(By.id("token-page")).isEmpty());
      assertTrue(browser.findElements(By.cssSelector(".worker-card")).isEmpty(), "no worker card on the token page");
      assertTrue(text("#token-page").contains("~/.parl/token"), text("#token-page"));
    }
    screenshot("monitor-token-page.png");

    browser.findElement(By.name("token")).sendKeys("f".repeat(64));
    browser.findElement(By.cssSelector("#token-page button[type=submit]")).click();
    waitFor(d -> text("#message").contains("wrong cluster token"));
    assertTrue(browser.manage().getCookieNamed("parl_session") == null, "no session for a wrong token");

    browser.get(monitor + loginPath);
    waitFor(d -> d.getCurrentUrl().equals(monitor + "/") && !d.findElements(By.cssSelector(".worker-card")).isEmpty());
    Cookie session = browser.manage().getCookieNamed("parl_session");
    assertTrue(session != null && session.isHttpOnly() && session.isSecure(), String.valueOf(session));
    assertEquals("Strict", session.getSameSite());
  }

  @Test
  void workersPageShowsEachGpuAndWhoUsesIt() throws Exception {
    logIn();
    RemoteActor<Counter> single = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await();
    RemoteActor<Counter> pair = parl.actor(Counter.class, CounterImpl.class).gpus(2).createAsync().await();
    // a few statistics points for the charts, which start from this history
    Await.until("3 statistics points of each worker in /api/history", WAIT, () -> http.json("/api/history"),
        h -> h.size() == 2 && h.stream().allMatch(e -> ((JsonObject) e.getValue()).getJsonArray("t").size() >= 3));
    browser.get(monitor + "/");
    waitFor(d -> gpuRows().size() == 6 && countState("used") == 3
        && !d.findElements(By.cssSelector(".uplot canvas")).isEmpty());

    List<Map<String, Object>> rows = gpuRows();
    assertEquals(List.of("0", "1", "2", "3"), idsOn(rows, cluster.localWorker));
    assertEquals(List.of("0", "1"), idsOn(rows, w2));
    for (Map<String, Object> gpu : rows) {
      String text = (String) gpu.get("text");
      assertTrue(text.contains("GPU " + gpu.get("gpu")) && text.contains("NVIDIA Fake H100"), text);
      assertTrue(text.contains("MiB") || text.contains("GiB"), "memory shown: " + text);
      assertTrue(text.contains("%"), "utilisation shown: " + text);
    }
    assertEquals("used by " + single.jobId(), stateOf(rows, single.workerId(), single.gpus().get(0)));
    for (String g : pair.gpus()) {
      assertEquals("used by " + pair.jobId(), stateOf(rows, pair.workerId(), g));
    }
    assertEquals(3, countState("vacant"));
    screenshot("monitor-workers.png");

    // live: closing an actor frees its GPUs on the open page
    pair.close();
    waitFor(d -> countState("vacant") == 5);
  }

  @Test
  void clientsPageLeadsToTheJobsAndTheLog() throws Exception {
    logIn();
    RemoteActor<Counter> single = parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await();
    RemoteActor<Counter> pair = parl.actor(Counter.class, CounterImpl.class).gpus(2).createAsync().await();
    single.run(x -> x.print(MARKER)).await(20, TimeUnit.SECONDS);
    pair.close();
    Await.until("the closed actor's job shown as ended by /api/jobs", WAIT, () -> http.json("/api/jobs?client=" + parl.id()),
        answer -> answer.getJsonArray("jobs").stream().map(j -> (JsonObject) j)
            .anyMatch(j -> pair.jobId().equals(j.getString("jobId")) && "ended".equals(j.getString("state"))));
    browser.get(monitor + "/clients.html");
    String clientRow = "tr[data-client='" + parl.id() + "']";
    waitFor(d -> !d.findElements(By.cssSelector(clientRow)).isEmpty());
    assertTrue(text(clientRow).contains("jobs and logs"), text(clientRow));
    screenshot("monitor-clients.png");

    browser.findElement(By.cssSelector(clientRow)).findElement(By.linkText("jobs and logs →")).click();
    waitFor(d -> d.getCurrentUrl().contains("/jobs.html?client=" + parl.id()));
    waitFor(d -> !d.findElements(By.cssSelector("tr[data-job='" + single.jobId() + "']")).isEmpty()
        && !d.findElements(By.cssSelector("tr[data-job='" + pair.jobId() + "']")).isEmpty());
    assertTrue(text("tr[data-job='" + pair.jobId() + "']").contains("ended"), text("tr[data-job='" + pair.jobId() + "']"));

    browser.get(monitor + "/jobs.html?client=" + parl.id() + "&job=" + single.jobId());
    waitFor(d -> text("#log").contains(MARKER));
    assertEquals("/api/jobs/" + single.jobId() + "/log/download", browser.findElement(By.id("download")).getDomAttribute("href"));

    // the log follows what the job prints while the page is open
    single.run(x -> x.print("printed while the page was open")).await(20, TimeUnit.SECONDS);
    waitFor(d -> text("#log").contains("printed while the page was open"));
    screenshot("monitor-job-log.png");
  }

  @Test
  void waitingPageSaysWhyACreateWaitsAndUpdatesLive() throws Exception {
    logIn();
    // 4 + 2 GPUs: a 4-GPU actor and two 1-GPU actors leave one GPU; a 2-GPU create then waits
    RemoteActor<Counter> four = parl.actor(Counter.class, CounterImpl.class).gpus(4).createAsync().await();
    parl.actor(Counter.class, CounterImpl.class).gpus(1).createAsync().await();
    io.vertx.core.Future<RemoteActor<Counter>> waiting = parl.actor(Counter.class, CounterImpl.class).gpus(2).createAsync();
    cluster.awaitWaiting(1);
    browser.get(monitor + "/waiting.html");
    waitFor(d -> !d.findElements(By.cssSelector("#waiting tbody tr")).isEmpty());
    String row = text("#waiting tbody tr");
    assertTrue(row.contains(parl.id()) && row.contains("2 GPUs"), row);
    assertTrue(text("#waiting tbody tr .reason").contains("no worker can hold 2 GPUs"), row);
    assertTrue(row.contains(cluster.localWorker + ": 0 of 4 GPUs vacant") && row.contains(w2 + ": 1 of 2 GPUs vacant"),
        "one constraint per worker: " + row);
    screenshot("monitor-waiting.png");
    four.close();
    waiting.await();
    // live: the page follows the cluster without a reload
    waitFor(d -> d.findElements(By.cssSelector("#waiting tbody tr")).isEmpty() && d.findElement(By.id("no-waiting")).isDisplayed());
  }

  @Test
  void anOperatorDrainsAGpuWithItsButton() throws Exception {
    logIn();
    browser.get(monitor + "/");
    String target = "button[data-drain='" + w2 + ":1']";
    waitFor(d -> !d.findElements(By.cssSelector(target)).isEmpty());
    browser.findElement(By.cssSelector(target)).click();
    waitFor(d -> "drained".equals(stateOf(gpuRows(), w2, "1")));
    assertEquals(List.of(1), cluster.member().snapshot().getJsonArray("workers").stream()
        .map(JsonObject.class::cast).filter(w -> w.getString("id").equals(w2)).findFirst().orElseThrow()
        .getJsonArray("worker_out_of_service_gpus").getList());
    waitFor(d -> d.findElement(By.cssSelector(target)).getText().equals("undrain"));
    browser.findElement(By.cssSelector(target)).click();
    waitFor(d -> "vacant".equals(stateOf(gpuRows(), w2, "1")));
  }

  /**
   * Opens a session by entering the token on the token page, as a user without a login link does
   * (the master's printed link is good once, and only for its start), unless one is open.
   */
  private void logIn() {
    browser.get(monitor + "/");
    if (browser.manage().getCookieNamed("parl_session") == null) {
      waitFor(d -> !d.findElements(By.id("token-page")).isEmpty());
      browser.findElement(By.name("token")).sendKeys(cluster.token());
      browser.findElement(By.cssSelector("#token-page button[type=submit]")).click();
      waitFor(d -> d.findElements(By.id("token-page")).isEmpty() && browser.manage().getCookieNamed("parl_session") != null);
    }
  }

  private void waitFor(java.util.function.Function<WebDriver, Boolean> condition) {
    new WebDriverWait(browser, WAIT).ignoring(StaleElementReferenceException.class).until(condition::apply);
  }

  /** Every GPU row of the workers page, read at once: worker, gpu, state text, row text. */
  @SuppressWarnings("unchecked")
  private List<Map<String, Object>> gpuRows() {
    return (List<Map<String, Object>>) ((JavascriptExecutor) browser).executeScript(
        "return Array.from(document.querySelectorAll('.worker-card .gpu')).map(g => ({"
            + "worker: g.closest('.worker-card').dataset.worker, gpu: g.dataset.gpu,"
            + "used: g.classList.contains('used'), state: g.querySelector('.gpu-state').innerText.trim(), text: g.innerText}))");
  }

  private long countState(String state) {
    return gpuRows().stream().filter(r -> Boolean.TRUE.equals(r.get("used")) == state.equals("used")).count();
  }

  private static List<String> idsOn(List<Map<String, Object>> rows, String workerId) {
    return rows.stream().filter(r -> workerId.equals(r.get("worker"))).map(r -> (String) r.get("gpu")).toList();
  }

  private static String stateOf(List<Map<String, Object>> rows, String workerId, String gpu) {
    return rows.stream().filter(r -> workerId.equals(r.get("worker")) && gpu.equals(r.get("gpu")))
        .map(r -> (String) r.get("state")).findFirst().orElse("no GPU " + gpu + " on " + workerId);
  }

  /** The text of the first element matching a CSS selector, read at once ("" when there is none). */
  private String text(String css) {
    Object t = ((JavascriptExecutor) browser).executeScript(
        "const e = document.querySelector(arguments[0]); return e ? e.innerText : '';", css);
    return String.valueOf(t);
  }

  private void screenshot(String name) throws Exception {
    Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
    Path target = Path.of("target", name);
    Files.createDirectories(target.getParent());
    Files.copy(shot, target, StandardCopyOption.REPLACE_EXISTING);
    System.out.println("BrowserIT: screenshot " + target.toAbsolutePath());
  }

  private WebDriver chromium() throws Exception {
    System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
    profile = Files.createTempDirectory("parl-chromium");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
        "--window-size=1440,1000", "--user-data-dir=" + profile);
    options.setAcceptInsecureCerts(true); // the cluster's certificate is self-signed (its fingerprint is printed)
    return new ChromeDriver(options);
  }
}
