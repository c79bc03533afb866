package io.hotrank.lock;

import java.util.HexFormat;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;

/**
 * How this instance names itself to the others: in lease tokens, task owners, job log lines and the
 * admin view; and which process of that name this is.
 *
 * <p>A lease token is {@code <value>/<incarnation>:<random UUID>}. The incarnation is new in every
 * process, so a token tells a lease of this process from one its name held in an earlier life. When
 * the name is {@linkplain #exclusive() exclusive}, that earlier life is known to be dead, and the
 * lease stores hand its leases to this process at once, with a new, higher fencing token ({@link
 * LeaseStore#tryAcquire}), instead of leaving them to expire.
 *
 * @param value {@code hotrank.instance-id}, the id kept in the data directory, or {@code <host
 *     name>-<process id>} (see {@link InstanceIdentity})
 * @param incarnation this process's own random marker, 8 hexadecimal digits
 * @param exclusivity whether no other live process can carry {@code value} now: proven by the data
 *     directory's lock, or by the presence lease of a configured id while this process holds it;
 *     false for the per-process fallback, whose host name may be shared
 */
public record InstanceId(String value, String incarnation, BooleanSupplier exclusivity) {

  /** A name whose exclusivity does not change while the process lives. */
  public InstanceId(String value, String incarnation, boolean exclusive) {
    this(value, incarnation, () -> exclusive);
  }

  public InstanceId {
    if (value.isBlank() || value.contains("/") || value.length() > 100) {
      throw new IllegalArgumentException(
          "hotrank.instance-id='"
              + value
              + "' must be 1 to 100 characters and contain no '/' (lease tokens hold it)");
    }
    if (!incarnation.matches("[0-9a-f]{8}")) {
      throw new IllegalArgumentException("incarnation '" + incarnation + "' is not 8 hex digits");
    }
  }

  /** A name of this process that takes nothing over: tests and tools. */
  public static InstanceId of(String value) {
    return new InstanceId(value, newIncarnation(), false);
  }

  static String newIncarnation() {
    return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
  }

  /** A new lease token of this process. */
  public String newToken() {
    return ownTokens() + UUID.randomUUID();
  }

  /** Whether no other live process can carry this name now ({@link #exclusivity()}). */
  public boolean exclusive() {
    return exclusivity.getAsBoolean();
  }

  /** How every token this process issues begins. */
  public String ownTokens() {
    return value + "/" + incarnation + ":";
  }

  /**
   * How the tokens of this name's earlier lives begin (besides {@link #ownTokens()}), or the empty
   * string when the name is not exclusive and nothing may be taken over.
   */
  public String takeoverTokens() {
    return exclusive() ? value + "/" : "";
  }

  @Override
  public String toString() {
    return value;
  }
}
