package org.parl.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.parl.control.JobView;
import org.parl.internal.wire.gateway.Job;

/** The monitor shows a job process flat, as it always has, though the worker sends its job as one record. */
class JobsServiceShownTest {

  @Test
  void aJobProcessIsShownWithTheFieldsTheWebPagesRead() {
    Job job = new Job("job-7", "c-1", "w-a", "my.Actor", 0, List.of(2, 3), 512, 1_700_000_000_000L);
    JobView view = new JobView(job, "slot-2", 4242, "ended", 512, 1_700_000_000_000L, 1_700_000_001_000L, 17, "exit 1");
    assertEquals("{\"jobId\":\"job-7\",\"slot\":\"slot-2\",\"clientId\":\"c-1\",\"actorClass\":\"my.Actor\",\"pid\":4242,"
        + "\"state\":\"ended\",\"gpus\":[2,3],\"memoryLimitMb\":512,\"startedAt\":1700000000000,\"endedAt\":1700000001000,"
        + "\"calls\":17,\"cause\":\"exit 1\"}", JobsService.shown(view).encode());
  }

  @Test
  void aRunningOneShowsNullsWhereItHasNoEndYet() {
    Job job = new Job("job-8", "c-1", "w-a", "my.Actor", 1, List.of(), 0, 1L);
    JobView view = new JobView(job, "slot-3", 1, "assigned", 0, 2L, null, 0, null);
    assertEquals("{\"jobId\":\"job-8\",\"slot\":\"slot-3\",\"clientId\":\"c-1\",\"actorClass\":\"my.Actor\",\"pid\":1,"
        + "\"state\":\"assigned\",\"gpus\":[],\"memoryLimitMb\":0,\"startedAt\":2,\"endedAt\":null,\"calls\":0,\"cause\":null}",
        JobsService.shown(view).encode());
  }
}
