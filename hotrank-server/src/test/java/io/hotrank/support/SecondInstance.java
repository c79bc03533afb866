package io.hotrank.support;

import io.hotrank.HotrankApplication;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Another hotrank instance in this JVM, sharing the Redis and the database of a running test
 * context, with its own (empty) local snapshots. Closing it stops it.
 */
public final class SecondInstance implements AutoCloseable {

  private final ConfigurableApplicationContext context;
  private final String prefix;

  private SecondInstance(ConfigurableApplicationContext context, String prefix) {
    this.context = context;
    this.prefix = prefix;
  }

  /**
   * Starts an instance configured like the one behind {@code environment}, plus {@code extra}
   * arguments ({@code --name=value}).
   */
  public static SecondInstance start(Environment environment, String... extra) {
    return start(environment, null, extra);
  }

  /**
   * As {@link #start(Environment, String...)}, with {@code clock} (the first instance's test clock)
   * as this instance's clock too, so that both see the same instant: realtime boards whose data is
   * bucketed by time (window boards) agree on the current bucket.
   */
  public static SecondInstance start(
      Environment environment, java.time.@Nullable Clock clock, String... extra) {
    // Command-line arguments: they outrank application.yml, as the copied values must.
    List<String> args = new ArrayList<>();
    for (String key :
        new String[] {
          "spring.datasource.url",
          "spring.datasource.username",
          "spring.datasource.password",
          "spring.data.redis.url",
          "spring.data.redis.host",
          "spring.data.redis.port",
          "spring.data.redis.password",
          "spring.data.redis.cluster.nodes",
          "hotrank.redis.key-prefix",
          "hotrank.data-dir"
        }) {
      String value = environment.getProperty(key);
      // Not a blank one (a test may blank a URL to name its Redis otherwise).
      if (value != null && !value.isBlank()) {
        args.add("--" + key + "=" + value);
      }
    }
    args.add("--server.port=0");
    args.add("--hotrank.board.scheduling=false");
    args.addAll(List.of(extra));
    SpringApplicationBuilder builder =
        new SpringApplicationBuilder(HotrankApplication.class).profiles("test");
    if (clock != null) {
      builder.initializers(
          context ->
              ((GenericApplicationContext) context)
                  .registerBean(
                      "sharedTestClock",
                      java.time.Clock.class,
                      () -> clock,
                      definition -> definition.setPrimary(true)));
    }
    ConfigurableApplicationContext context = builder.run(args.toArray(String[]::new));
    return new SecondInstance(context, environment.getProperty("hotrank.redis.key-prefix"));
  }

  /** A bean of this instance. */
  public <T> T bean(Class<T> type) {
    return context.getBean(type);
  }

  public HttpJson http() {
    String port = context.getEnvironment().getProperty("local.server.port");
    return new HttpJson("http://127.0.0.1:" + port, "test-admin-token");
  }

  /** Deletes this run's Redis keys whose names end with {@code suffix}. */
  public void deleteRedisKeys(String suffix) {
    StringRedisTemplate redis = context.getBean(StringRedisTemplate.class);
    Set<String> keys = redis.keys(prefix + "*");
    keys.stream().filter(k -> k.endsWith(suffix)).forEach(redis::delete);
  }

  @Override
  public void close() {
    context.close();
  }
}
