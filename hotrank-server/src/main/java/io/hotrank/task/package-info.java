/**
 * The database task platform: tasks in {@code hr_task} claimed by compare-and-set on their version
 * (the run's fencing token), heartbeats from a dedicated thread, takeover of runs whose owner
 * stopped renewing, retries and misfire policies, a history in {@code hr_task_run}, and the admin
 * API that pauses, resumes, triggers and audits them. Every time comparison reads the database's
 * clock inside the statement. Runs {@link io.hotrank.job.Job}s: the jobs configured with {@code
 * engine: task}, and any job a task created over HTTP names.
 */
@ApplicationModule(allowedDependencies = {"audit", "job", "lock", "storage", "web"})
@NullMarked
package io.hotrank.task;

import org.jspecify.annotations.NullMarked;
import org.springframework.modulith.ApplicationModule;
