package io.hotrank.bench.tasks;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * How every scheduler instance is configured, the same for both instances and every scheduler, so
 * that the figures compare like with like. Implementations map these onto their own settings and
 * say in {@link BenchScheduler#describe} where they had to round (e.g. a dead-execution threshold
 * that must be a whole multiple of the heartbeat interval).
 *
 * @param threads execution threads per instance
 * @param pollingInterval how often an idle instance looks for due executions
 * @param heartbeatInterval how often a running execution's heartbeat is written
 * @param deadAfter the requested age of the last heartbeat after which an execution is dead
 * @param shutdownWait how long a graceful stop waits for running executions
 */
public record InstanceSettings(
    int threads,
    Duration pollingInterval,
    Duration heartbeatInterval,
    Duration deadAfter,
    Duration shutdownWait) {

  /** The settings as {@code --key=value} arguments for an instance JVM. */
  List<String> toArgs() {
    return List.of(
        "--threads=" + threads,
        "--polling=" + pollingInterval,
        "--heartbeat=" + heartbeatInterval,
        "--dead-after=" + deadAfter,
        "--shutdown-wait=" + shutdownWait);
  }

  /** The inverse of {@link #toArgs()}. */
  static InstanceSettings fromArgs(Map<String, String> args) {
    return new InstanceSettings(
        Integer.parseInt(args.get("threads")),
        Duration.parse(args.get("polling")),
        Duration.parse(args.get("heartbeat")),
        Duration.parse(args.get("dead-after")),
        Duration.parse(args.get("shutdown-wait")));
  }
}
