package io.hotrank.console;

import io.hotrank.hotkey.HotKeys;
import io.hotrank.ingest.EventSource;
import io.hotrank.job.JobScheduler;
import io.hotrank.job.JobSettings;
import io.hotrank.job.JobStatus;
import io.hotrank.limit.RateLimits;
import io.hotrank.limit.RouteGroup;
import io.hotrank.lock.InstanceId;
import io.hotrank.lock.LeaseConfiguration.LeaseStores;
import io.hotrank.lock.LeaseState;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * The read-only pages: jobs and their leases, hot keys, rate-limit policies with their recent
 * decisions, and ingest. Each shows what the matching admin endpoint answers, from the same public
 * services; what is per instance (a job's last run here, hot keys, recent decisions) names the
 * instance.
 */
@Controller
class OpsPages {

  /**
   * A job and its lease.
   *
   * @param lease the lease as the store has it; null for jobs on the task engine or when the store
   *     did not answer
   * @param leaseError why the lease is missing when its store failed
   */
  record JobRow(JobStatus status, @Nullable LeaseState lease, @Nullable String leaseError) {}

  /** A route group's policy and its last decisions on this instance. */
  record LimitRow(String group, long quota, long windowSeconds, List<RateLimits.Recent> recent) {}

  private final JobScheduler scheduler;
  private final LeaseStores leases;
  private final HotKeys hotKeys;
  private final ObjectProvider<RateLimits> limits;
  private final EventSource ingest;
  private final InstanceId instance;

  OpsPages(
      JobScheduler scheduler,
      LeaseStores leases,
      HotKeys hotKeys,
      ObjectProvider<RateLimits> limits,
      EventSource ingest,
      InstanceId instance) {
    this.scheduler = scheduler;
    this.leases = leases;
    this.hotKeys = hotKeys;
    this.limits = limits;
    this.ingest = ingest;
    this.instance = instance;
  }

  @GetMapping(ConsolePaths.ROOT + "/jobs")
  String jobs(Model model) {
    List<JobRow> rows = new ArrayList<>();
    for (JobStatus status : scheduler.statuses()) {
      if (!status.settings().engine().equals(JobSettings.LEASE_ENGINE)) {
        rows.add(new JobRow(status, null, null));
        continue;
      }
      try {
        rows.add(
            new JobRow(status, leases.of(status.settings().store()).inspect(status.job()), null));
      } catch (RuntimeException e) {
        rows.add(new JobRow(status, null, status.settings().store() + " unavailable"));
      }
    }
    model.addAttribute("jobs", rows);
    model.addAttribute("instance", instance.value());
    return "console/jobs";
  }

  @GetMapping(ConsolePaths.ROOT + "/hotkeys")
  String hotKeys(Model model) {
    model.addAttribute("enabled", hotKeys.properties().enabled());
    model.addAttribute("rules", hotKeys.properties().rules());
    model.addAttribute("keys", hotKeys.current());
    model.addAttribute("instance", instance.value());
    return "console/hotkeys";
  }

  @GetMapping(ConsolePaths.ROOT + "/limits")
  String limits(Model model) {
    RateLimits rateLimits = limits.getIfAvailable();
    List<LimitRow> rows = new ArrayList<>();
    if (rateLimits != null) {
      for (var entry : rateLimits.policies().entrySet()) {
        RouteGroup group = entry.getKey();
        rows.add(
            new LimitRow(
                group.policyName(),
                entry.getValue().quota(),
                entry.getValue().window().toSeconds(),
                rateLimits.recent(group)));
      }
    }
    model.addAttribute("enabled", rateLimits != null);
    model.addAttribute("policies", rows);
    model.addAttribute("instance", instance.value());
    return "console/limits";
  }

  @GetMapping(ConsolePaths.ROOT + "/ingest")
  String ingest(Model model) {
    model.addAttribute("ingest", ingest.report());
    model.addAttribute("instance", instance.value());
    return "console/ingest";
  }
}
