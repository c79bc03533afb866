package io.hotrank.redis;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Bounds what a slow or dead Redis can cost a reader: each guarded call gets the read timeout
 * ({@code hotrank.redis.read-timeout}) and goes through a circuit breaker, so a hung Redis costs a
 * few timeouts and then nothing until the breaker lets a probe through.
 *
 * <p>The call itself runs on a virtual thread and the caller waits at most the timeout. The
 * client's own command timeout ({@code spring.data.redis.timeout}) stays longer, for writes; a call
 * abandoned by its caller finishes, or fails, on its virtual thread. Thread-safe.
 */
@Component
public class RedisReadGuard implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(RedisReadGuard.class);

  private final Duration timeout;
  private final CircuitBreaker breaker;
  private final ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor();

  RedisReadGuard(HotrankRedisProperties properties, MeterRegistry meters) {
    this.timeout = properties.readTimeout();
    CircuitBreakerConfig config =
        CircuitBreakerConfig.custom()
            .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
            .slidingWindowSize(properties.breakerWindow())
            .minimumNumberOfCalls(properties.breakerMinimumCalls())
            .failureRateThreshold(properties.breakerFailureRate())
            .waitDurationInOpenState(properties.breakerOpenFor())
            .permittedNumberOfCallsInHalfOpenState(properties.breakerProbes())
            .automaticTransitionFromOpenToHalfOpenEnabled(false)
            .recordExceptions(Exception.class)
            .build();
    CircuitBreakerRegistry registry = CircuitBreakerRegistry.of(config);
    this.breaker = registry.circuitBreaker("redis-read");
    this.breaker
        .getEventPublisher()
        .onStateTransition(event -> log.warn("Redis read breaker: {}", event.getStateTransition()));
    TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(registry).bindTo(meters);
  }

  /**
   * Runs a Redis read within the timeout, through the breaker.
   *
   * @param what names the read in logs and exceptions
   * @throws RedisUnavailableException if Redis failed, timed out, or the breaker is open
   */
  public <T> T read(String what, Supplier<T> call) {
    return read(what, timeout, call);
  }

  /**
   * Runs a Redis read within its own timeout, through the breaker: for readers whose fallback costs
   * more than waiting a little longer (a cache whose next layer is the database).
   *
   * @throws RedisUnavailableException if Redis failed, timed out, or the breaker is open
   */
  public <T> T read(String what, Duration timeout, Supplier<T> call) {
    if (!breaker.tryAcquirePermission()) {
      throw new RedisUnavailableException(what, "circuit breaker open", null);
    }
    long start = breaker.getCurrentTimestamp();
    try {
      T value = withinTimeout(what, timeout, call);
      breaker.onResult(breaker.getCurrentTimestamp() - start, breaker.getTimestampUnit(), value);
      return value;
    } catch (RedisUnavailableException e) {
      if (Thread.currentThread().isInterrupted()) {
        breaker.releasePermission(); // our caller gave up; that says nothing about Redis
      } else {
        breaker.onError(
            breaker.getCurrentTimestamp() - start, breaker.getTimestampUnit(), e.getCause());
      }
      throw e;
    }
  }

  /**
   * Runs a Redis call within the read timeout without counting it in the circuit breaker: for
   * health probes, which must neither open the breaker for readers nor use up its trial calls.
   * While the breaker is open it fails at once, as reads do.
   *
   * @throws RedisUnavailableException if Redis failed, timed out, or the breaker is open
   */
  public <T> T probe(String what, Supplier<T> call) {
    if (breaker.getState() == CircuitBreaker.State.OPEN) {
      throw new RedisUnavailableException(what, "circuit breaker open", null);
    }
    return withinTimeout(what, timeout, call);
  }

  /**
   * Runs the call on a virtual thread and waits at most the timeout.
   *
   * @throws RedisUnavailableException with the failure, the timeout or the interruption as cause
   */
  private <T> T withinTimeout(String what, Duration timeout, Supplier<T> call) {
    CompletableFuture<T> future = CompletableFuture.supplyAsync(call, calls);
    try {
      return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new RedisUnavailableException(
          what, "no answer within " + timeout.toMillis() + " ms", e);
    } catch (ExecutionException e) {
      throw new RedisUnavailableException(what, e.getCause().toString(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RedisUnavailableException(what, "interrupted", e);
    }
  }

  /**
   * Evidence that Redis is back (the client reconnected, or a Pub/Sub notice arrived): an open
   * breaker lets probe calls through now instead of waiting out its open period.
   */
  public void redisSeemsBack() {
    if (breaker.getState() == CircuitBreaker.State.OPEN) {
      breaker.transitionToHalfOpenState();
    }
  }

  /** Whether the breaker is closed: Redis reads are going through normally. */
  public boolean closed() {
    return breaker.getState() == CircuitBreaker.State.CLOSED;
  }

  /** The breaker state, for health and tests: CLOSED, OPEN, HALF_OPEN. */
  public String state() {
    return breaker.getState().name();
  }

  @Override
  public void close() {
    calls.shutdownNow();
  }
}
