package io.hotrank.lock;

/**
 * How this instance names itself to the others: in lease tokens, job log lines and the admin view.
 *
 * @param value {@code hotrank.instance-id}, or {@code <host name>-<process id>} when unset
 */
public record InstanceId(String value) {

  public InstanceId {
    if (value.isBlank() || value.contains("/")) {
      throw new IllegalArgumentException(
          "hotrank.instance-id='" + value + "' must be non-blank and contain no '/'");
    }
  }

  @Override
  public String toString() {
    return value;
  }
}
