package io.hotrank.embedded;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The embedded default, under {@code hotrank.embedded.*}. Read from the environment before the
 * application context exists (see {@link EmbeddedDefaults}); declared as a record so that its
 * defaults are stated once and IDEs complete them.
 *
 * @param redis whether to start the embedded Redis binary when no Redis is configured; {@code
 *     false} leaves Redis unconfigured (Spring Boot's default, localhost:6379)
 * @param redisBinary the {@code redis-server} executable to run; empty: a {@code redis-server} on
 *     {@code PATH} of version 7.0 or newer, else the outdated 6.2 binary bundled with
 *     embedded-redis (with a warning)
 * @param redisMaxMemory the embedded Redis's {@code maxmemory}, at least 1MB; it evicts nothing
 *     ({@code noeviction}), so writes fail once it is full
 */
@ConfigurationProperties("hotrank.embedded")
public record EmbeddedProperties(
    @DefaultValue("true") boolean redis,
    @DefaultValue("") String redisBinary,
    @DefaultValue("256MB") DataSize redisMaxMemory) {

  public EmbeddedProperties {
    if (redisMaxMemory.toBytes() < DataSize.ofMegabytes(1).toBytes()) {
      throw new IllegalArgumentException(
          "hotrank.embedded.redis-max-memory=" + redisMaxMemory + " must be at least 1MB");
    }
  }
}
