package org.parl.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ApiParamsTest {

  @Test
  void wellFormedJobIdsPass() {
    assertEquals("job-1", ApiParams.jobId("job-1"));
    assertEquals("job-123456", ApiParams.jobId("job-123456"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "job-", "job-x", "../job-1", "job-1/..", "..%2f", "../../etc/passwd", "job-1\n", "JOB-1",
      "job-1.log", "job-1234567890123456789", " job-1", "job--1", "%2e%2e%2f"})
  void anythingElseIsAnUnknownJob(String id) {
    ApiError e = assertThrows(ApiError.class, () -> ApiParams.jobId(id));
    assertEquals(404, e.status());
    assertTrue(e.getMessage().startsWith("no job"), e.getMessage());
    assertTrue(e.getMessage().chars().allMatch(c -> c >= 0x20 && c < 0x7f), "echoed input is printable: " + e.getMessage());
  }

  @Test
  void nullJobIdIsUnknown() {
    assertEquals(404, assertThrows(ApiError.class, () -> ApiParams.jobId(null)).status());
  }

  @Test
  void linesDefaultsTo500() {
    assertEquals(500, ApiParams.lines(null));
    assertEquals(500, ApiParams.lines(List.of()));
    assertEquals(1, ApiParams.lines(List.of("1")));
    assertEquals(10_000, ApiParams.lines(List.of("10000")));
    assertEquals(20, ApiParams.lines(List.of("20", "30")), "the first value counts");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "-1", "10001", "99999999999999999999", "abc", "", "1.5", "1e3", " 5", "+5", "0x10"})
  void badLinesAre400(String raw) {
    ApiError e = assertThrows(ApiError.class, () -> ApiParams.lines(List.of(raw)));
    assertEquals(400, e.status());
    assertTrue(e.getMessage().contains("lines"), e.getMessage());
  }

  @Test
  void clientIds() {
    assertEquals("c-1a2b3c4d", ApiParams.clientId(List.of("c-1a2b3c4d")));
    assertEquals(400, assertThrows(ApiError.class, () -> ApiParams.clientId(List.of())).status());
    assertEquals(400, assertThrows(ApiError.class, () -> ApiParams.clientId(List.of(""))).status());
    assertEquals(404, assertThrows(ApiError.class, () -> ApiParams.clientId(List.of("../c-1"))).status());
    assertEquals(404, assertThrows(ApiError.class, () -> ApiParams.clientId(List.of("c".repeat(65)))).status());
  }

  @ParameterizedTest
  @ValueSource(strings = {"/api/jobs/../../etc/passwd", "/api/jobs/%2e%2e%2fetc/log", "/api/jobs/..%2F..%2Fetc/log",
      "/api/jobs/%2E%2E/log", "/..", "/api/./cluster", "/api/jobs/..%5cx/log", "/a\\..\\b"})
  void climbingPathsAreCaught(String path) {
    assertTrue(ApiParams.traverses(path), path);
  }

  @ParameterizedTest
  @ValueSource(strings = {"/", "/api/cluster", "/api/jobs/job-1/log", "/webjars/uplot/1.6.30/dist/uPlot.iife.min.js",
      "/jobs.html", "/a..b/c", "/api/jobs/job-1..2/log"})
  void ordinaryPathsPass(String path) {
    assertFalse(ApiParams.traverses(path), path);
  }
}
