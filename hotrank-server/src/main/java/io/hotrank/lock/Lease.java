package io.hotrank.lock;

/**
 * A granted lease.
 *
 * @param name the lease's name
 * @param token the owner token: {@code <instance id>/<incarnation>:<random UUID>}, unique to this
 *     grant ({@link InstanceId#newToken()})
 * @param fence the fencing token: greater than that of every earlier grant of this name
 */
public record Lease(String name, String token, long fence) {

  /** The instance the lease was granted to, from its token. */
  public String instance() {
    return token.substring(0, token.lastIndexOf('/'));
  }
}
