package io.hotrank.feed;

import io.hotrank.feed.FollowStore.Edge;
import io.hotrank.feed.FollowStore.Side;
import io.hotrank.item.ItemOutbox;
import io.hotrank.job.DrainLoop;
import io.hotrank.job.DrainLoop.Step;
import io.hotrank.job.FaultPoints;
import io.hotrank.job.Job;
import io.hotrank.job.JobContext;
import io.hotrank.job.JobDefinition;
import io.hotrank.job.JobSource;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.stereotype.Component;

/**
 * The job {@code feed-fanout}: hands every created item (the item outbox, {@link ItemOutbox}) on to
 * the following feeds, on one instance at a time (its lease), never on a request's thread. For each
 * item, oldest first:
 *
 * <ol>
 *   <li>it is added to its author's outbox in Redis;
 *   <li>if the author has more followers than {@code hotrank.feeds.push-threshold}, the author is
 *       marked as pulled and readers take the item from the outbox;
 *   <li>otherwise it is pushed into the inbox of every follower who has one (the active ones),
 *       {@value #FOLLOWERS_PAGE} followers a round trip;
 *   <li>only then is its outbox row deleted.
 * </ol>
 *
 * Every step may run twice (sorted sets hold an entry once), so a crash anywhere, a lost lease or
 * two instances at once lose nothing and duplicate nothing: what a dead instance left is done again
 * by the next run. Metrics: {@code hotrank.feeds.fanout.items{way=push|pull}} and {@code
 * hotrank.feeds.fanout.writes} (inbox entries written).
 */
@Component
class FanOut implements JobSource {

  static final String NAME = "feed-fanout";

  /** Followers read per query and pushed per round trip. */
  static final int FOLLOWERS_PAGE = 500;

  private final ItemOutbox outbox;
  private final FollowStore follows;
  private final FeedRedis redis;
  private final FeedProperties properties;
  private final Counter pushed;
  private final Counter pulled;
  private final Counter writes;
  private final Ticker ticker;
  private final FaultPoints faults;

  FanOut(
      ItemOutbox outbox,
      FollowStore follows,
      FeedRedis redis,
      FeedProperties properties,
      MeterRegistry meters,
      Ticker ticker,
      FaultPoints faults) {
    this.ticker = ticker;
    this.faults = faults;
    this.outbox = outbox;
    this.follows = follows;
    this.redis = redis;
    this.properties = properties;
    this.pushed = meters.counter("hotrank.feeds.fanout.items", "way", "push");
    this.pulled = meters.counter("hotrank.feeds.fanout.items", "way", "pull");
    this.writes = meters.counter("hotrank.feeds.fanout.writes");
  }

  @Override
  public List<JobDefinition> jobs() {
    return List.of(
        new JobDefinition(
            new FanOutJob(), properties.fanout() ? CronExpression.parse("* * * * * *") : null));
  }

  /** Hands on what waits, at most {@code maxBatches} batches; returns the items handed on. */
  int drain(int maxBatches) {
    int items = 0;
    for (int i = 0; i < maxBatches; i++) {
      int n = step();
      items += n;
      if (n < properties.fanoutBatch()) {
        break;
      }
    }
    return items;
  }

  /** One batch of the outbox; returns how many items it handed on. */
  private int step() {
    List<ItemOutbox.Entry> batch = outbox.oldest(properties.fanoutBatch());
    for (ItemOutbox.Entry entry : batch) {
      fanOut(entry);
      faults.point(NAME, "after-item", "item=" + entry.biz() + ":" + entry.itemId());
    }
    outbox.remove(batch);
    return batch.size();
  }

  /** Hands one created item on; may run again for the same item. */
  void fanOut(ItemOutbox.Entry item) {
    FeedEntry entry = FeedEntry.of(item.biz(), item.itemId(), item.createdAt());
    redis.addToOutbox(item.authorId(), entry);
    if (follows.counts(item.authorId()).followers() > properties.pushThreshold()) {
      redis.markBig(item.authorId());
      pulled.increment();
      return;
    }
    Edge after = null;
    while (true) {
      List<Edge> page = follows.page(Side.FOLLOWERS, item.authorId(), after, FOLLOWERS_PAGE);
      if (page.isEmpty()) {
        break;
      }
      boolean[] done = new boolean[page.size()];
      List<io.hotrank.redis.RedisRound.Part> parts = new ArrayList<>(page.size());
      for (int i = 0; i < page.size(); i++) {
        parts.add(redis.pushToInbox(page.get(i).userId(), List.of(entry), done, i));
      }
      redis.round().run(parts);
      for (boolean d : done) {
        if (d) {
          writes.increment();
        }
      }
      faults.point(NAME, "mid-item", "item=" + item.biz() + ":" + item.itemId());
      if (page.size() < FOLLOWERS_PAGE) {
        break;
      }
      after = page.getLast();
    }
    pushed.increment();
  }

  private final class FanOutJob implements Job {

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public boolean frequent() {
      return true;
    }

    @Override
    public boolean lingers() {
      return true;
    }

    @Override
    public void run(JobContext context) throws InterruptedException {
      DrainLoop.run(
          context,
          ticker,
          properties.fanoutInterval(),
          () -> {
            int n = step();
            return n == 0 ? Step.IDLE : n == properties.fanoutBatch() ? Step.MORE : Step.DONE;
          });
    }
  }
}
