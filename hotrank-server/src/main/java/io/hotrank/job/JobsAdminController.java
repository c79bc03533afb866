package io.hotrank.job;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.hotrank.lock.InstanceId;
import io.hotrank.lock.LeaseConfiguration.LeaseStores;
import io.hotrank.lock.LeaseState;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
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

  /** Every job, as this instance sees it. */
  @io.swagger.v3.oas.annotations.media.Schema(name = "JobList")
  record Jobs(String instance, List<Job> jobs) {}

  /**
   * One job.
   *
   * @param lease who holds its lease now; null for a job on another engine (the task platform)
   * @param lastRun its last run on this instance; null before the first
   */
  @io.swagger.v3.oas.annotations.media.Schema(name = "JobView")
  record Job(
      String name,
      String engine,
      String mode,
      String store,
      long leaseTtlMs,
      @Nullable Lease lease,
      boolean heldHere,
      JobStatus.@Nullable Run lastRun,
      int consecutiveFailures,
      @Nullable String lastLeaseLoss) {}

  /**
   * A lease as its store holds it.
   *
   * @param holder the instance holding it; null when free
   * @param error set, and fence and expiry absent, when the store did not answer; absent otherwise
   */
  @io.swagger.v3.oas.annotations.media.Schema(name = "JobLease")
  record Lease(
      @Nullable String holder,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Long fence,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable Long expiresInMs,
      @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String error) {}

  @GetMapping("/api/v1/admin/jobs")
  Jobs jobs() {
    List<Job> jobs = new ArrayList<>();
    for (JobStatus status : scheduler.statuses()) {
      jobs.add(
          new Job(
              status.job(),
              status.settings().engine(),
              status.settings().mode().configName(),
              status.settings().store(),
              status.settings().leaseTtl().toMillis(),
              // A job on another engine (the task platform) is claimed there, not under a lease.
              status.settings().engine().equals(JobSettings.LEASE_ENGINE) ? lease(status) : null,
              status.held() != null,
              status.lastRun(),
              status.consecutiveFailures(),
              status.lastLeaseLoss()));
    }
    return new Jobs(instance.value(), jobs);
  }

  private Lease lease(JobStatus status) {
    try {
      LeaseState state = stores.of(status.settings().store()).inspect(status.job());
      return new Lease(state.holder(), state.fence(), state.expiresInMillis(), null);
    } catch (RuntimeException e) {
      return new Lease(null, null, null, status.settings().store() + " unavailable");
    }
  }
}
