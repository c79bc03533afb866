package io.hotrank.redis;

import io.hotrank.time.Ticker;
import io.lettuce.core.event.Event;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import io.lettuce.core.event.connection.ReconnectAttemptEvent;
import io.lettuce.core.resource.ClientResources;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;

/**
 * Tells its listeners when the Redis client gets a connection back after losing one: whatever
 * arrives by Pub/Sub may have been missed meanwhile, so local copies must be checked or dropped.
 *
 * <p>A connection counts as coming back when it opens to an address within {@link #WINDOW} of a
 * {@code ReconnectAttemptEvent} to that address, or while Redis reads are failing (the read breaker
 * is not closed). A first connection is no reconnect: on a Cluster Lettuce opens one per node when
 * it first needs it, and briefly some to discover the topology; nothing was missed through those.
 * Listeners run on Lettuce's event thread and must hand long work off. Thread-safe.
 */
@Component
public class RedisReconnects implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(RedisReconnects.class);

  /** How long after a reconnect attempt an opening connection is taken for its result. */
  static final Duration WINDOW = Duration.ofMinutes(1);

  private final ObjectProvider<ClientResources> clientResources;
  private final RedisReadGuard guard;
  private final Ticker ticker;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private final Map<SocketAddress, Long> attempts = new ConcurrentHashMap<>();
  private @Nullable Disposable subscription;
  private volatile boolean running;

  RedisReconnects(
      ObjectProvider<ClientResources> clientResources, RedisReadGuard guard, Ticker ticker) {
    this.clientResources = clientResources;
    this.guard = guard;
    this.ticker = ticker;
  }

  /** Runs the listener after every reconnect, on Lettuce's event thread. */
  public void whenReconnected(Runnable listener) {
    listeners.add(listener);
  }

  @Override
  public synchronized void start() {
    ClientResources resources = clientResources.getIfAvailable();
    if (resources != null) {
      subscription =
          resources
              .eventBus()
              .get()
              .subscribe(
                  event -> {
                    // A consumer that throws ends the subscription for good.
                    try {
                      if (reconnected(event)) {
                        listeners.forEach(this::tell);
                      }
                    } catch (RuntimeException e) {
                      log.debug("Connection event {} not handled: {}", event, e.toString());
                    }
                  });
    }
    running = true;
  }

  private void tell(Runnable listener) {
    try {
      listener.run();
    } catch (RuntimeException e) {
      log.warn("A Redis reconnect listener failed: {}", e.toString());
    }
  }

  private boolean reconnected(Event event) {
    long now = ticker.read();
    if (event instanceof ReconnectAttemptEvent attempt) {
      attempts.put(attempt.remoteAddress(), now);
      return false;
    }
    if (!(event instanceof ConnectionActivatedEvent opened)) {
      return false;
    }
    Long attempted = attempts.get(opened.remoteAddress());
    return (attempted != null && now - attempted < WINDOW.toNanos()) || !guard.closed();
  }

  @Override
  public synchronized void stop() {
    running = false;
    if (subscription != null) {
      subscription.dispose();
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** Starts before the listeners' owners, which may register on start. */
  @Override
  public int getPhase() {
    return SmartLifecycle.DEFAULT_PHASE - 1;
  }
}
