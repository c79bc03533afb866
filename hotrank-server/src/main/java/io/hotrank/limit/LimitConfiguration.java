package io.hotrank.limit;

import io.hotrank.redis.HotrankRedisProperties;
import io.hotrank.redis.RedisReadGuard;
import io.hotrank.web.FilterOrder;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Wires the rate limits in front of every other filter but the request body limit (which refuses an
 * oversized body before it costs a Redis round trip), unless {@code hotrank.limits.enabled}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = "hotrank.limits.enabled", matchIfMissing = true)
class LimitConfiguration {

  @Bean
  GcraLimiter gcraLimiter(StringRedisTemplate redis, HotrankRedisProperties properties) {
    return new GcraLimiter(redis, properties.keyPrefix());
  }

  @Bean
  RateLimits rateLimits(
      LimitProperties properties,
      GcraLimiter limiter,
      RedisReadGuard guard,
      MeterRegistry meters,
      Clock clock) {
    return new RateLimits(
        properties,
        (policy, client) ->
            guard.read(
                "rate limit", properties.redisTimeout(), () -> limiter.decide(policy, client)),
        meters,
        System::nanoTime,
        clock);
  }

  @Bean
  FilterRegistrationBean<RateLimitFilter> rateLimitFilter(RateLimits limits, Clients clients) {
    FilterRegistrationBean<RateLimitFilter> registration =
        new FilterRegistrationBean<>(new RateLimitFilter(limits, clients));
    registration.addUrlPatterns("/api/v1/*");
    // /actuator/metrics takes the admin token: its guesses count as admin calls.
    registration.addUrlPatterns("/actuator/metrics", "/actuator/metrics/*");
    // The console has a policy of its own (RouteGroup.CONSOLE).
    registration.addUrlPatterns("/console", "/console/*");
    registration.setOrder(FilterOrder.RATE_LIMITS);
    return registration;
  }
}
