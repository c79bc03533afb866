package io.hotrank.job;

/**
 * Named points in jobs where a test can stall a run: where a stall is most harmful, such as after a
 * run's last check of its lease and before its fenced write. The service's own implementation does
 * nothing ({@link #NONE}); the multi-process tests put in one of theirs (a bean of this type, which
 * the default gives way to) to pause a process exactly there and stop it.
 *
 * <p>Implementations must be thread-safe: jobs on several threads pass their points at once.
 */
@FunctionalInterface
public interface FaultPoints {

  /** Points that do nothing: the service's own. */
  FaultPoints NONE = (job, where, detail) -> {};

  /**
   * Marks that {@code job} has reached the point {@code where}; returns at once unless a fault was
   * asked for there.
   *
   * @param job the job's name
   * @param where the point's name within the job, such as {@code before-publish}
   * @param detail what a fault's log line should say of the run there (for example its fence)
   */
  void point(String job, String where, String detail);
}
