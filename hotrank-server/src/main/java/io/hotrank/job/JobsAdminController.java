package io.hotrank.job;

import io.hotrank.lock.InstanceId;
import io.hotrank.lock.LeaseConfiguration.LeaseStores;
import io.hotrank.lock.LeaseState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/admin/jobs}: each job with its settings, who holds its lease now (from the
 * lease store, so the same on every instance), and its last run and consecutive failures on the
 * instance that answers. Jobs on the task engine show their task under {@code /api/v1/admin/tasks}.
 */
@RestController
class JobsAdminController {

  private final JobScheduler scheduler;
  private final LeaseStores stores;
  private final InstanceId instance;

  JobsAdminController(JobScheduler scheduler, LeaseStores stores, InstanceId instance) {
    this.scheduler = scheduler;
    this.stores = stores;
    this.instance = instance;
  }

  @GetMapping("/api/v1/admin/jobs")
  Map<String, Object> jobs() {
    List<Map<String, Object>> jobs = new ArrayList<>();
    for (JobStatus status : scheduler.statuses()) {
      Map<String, Object> job = new LinkedHashMap<>();
      job.put("name", status.job());
      job.put("engine", status.settings().engine());
      job.put("mode", status.settings().mode().configName());
      job.put("store", status.settings().store());
      job.put("leaseTtlMs", status.settings().leaseTtl().toMillis());
      // A job on another engine (the task platform) is claimed there, not under a lease.
      job.put(
          "lease",
          status.settings().engine().equals(JobSettings.LEASE_ENGINE) ? lease(status) : null);
      job.put("heldHere", status.held() != null);
      JobStatus.Run run = status.lastRun();
      job.put("lastRun", run == null ? null : run(run));
      job.put("consecutiveFailures", status.consecutiveFailures());
      job.put("lastLeaseLoss", status.lastLeaseLoss());
      jobs.add(job);
    }
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("instance", instance.value());
    view.put("jobs", jobs);
    return view;
  }

  private Map<String, Object> lease(JobStatus status) {
    Map<String, Object> lease = new LinkedHashMap<>();
    try {
      LeaseState state = stores.of(status.settings().store()).inspect(status.job());
      lease.put("holder", state.holder());
      lease.put("fence", state.fence());
      lease.put("expiresInMs", state.expiresInMillis());
    } catch (RuntimeException e) {
      lease.put("error", status.settings().store() + " unavailable");
    }
    return lease;
  }

  private static Map<String, Object> run(JobStatus.Run run) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("scheduledAt", run.scheduledAt().toString());
    view.put("startedAt", run.startedAt().toString());
    view.put("endedAt", run.endedAt().toString());
    view.put("outcome", run.outcome());
    view.put("fence", run.fence());
    view.put("error", run.error());
    return view;
  }
}
