package io.hotrank.lock;

/**
 * How this instance names itself to the others: in lease tokens, job log lines and the admin view.
 *
 * @param value {@code hotrank.instance-id}, or {@code <host name>-<process id>} when unset
 */
public record InstanceId(String value) {

  public InstanceId {
    if (value.isBlank() || value.contains("/") || value.length() > 100) {
      throw new IllegalArgumentException(
          "hotrank.instance-id='"
              + value
              + "' must be 1 to 100 characters and contain no '/' (lease tokens hold it)");
    }
  }

  @Override
  public String toString() {
    return value;
  }
}
