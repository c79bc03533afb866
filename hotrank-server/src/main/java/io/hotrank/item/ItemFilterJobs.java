package io.hotrank.item;

import io.hotrank.job.Job;
import io.hotrank.job.JobContext;
import io.hotrank.job.JobDefinition;
import io.hotrank.job.JobSource;
import io.hotrank.redis.RedisBloomFilter;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.stereotype.Component;

/**
 * The job {@code item-filter}: on {@code hotrank.items.cache.filter-check}, under its lease (one
 * instance at a time), builds the Bloom filter of every known biz ({@link Bizes}: configured or
 * created by an admin; no other) that has none (never built, a new biz, or lost with Redis's data),
 * whose shape is not the one its count of ids in the database calls for ({@link
 * ItemCacheProperties#filterShape}: the count outgrew the filter, or the settings changed), or
 * whose count of ids is below the database's (an add was lost), from the ids in the database.
 * Otherwise a filter is kept: creates add to it, and ids are never removed. After loading items
 * behind hotrank's back, delete the filter's shape pointer ({@code <prefix>{bloom:<biz>}:shape},
 * and nothing else): the biz answers "may exist" meanwhile, and the next run rebuilds its filter
 * and deletes the old one, whatever the new one's size ({@code ...:shapes} still names it).
 */
@Component
class ItemFilterJobs implements JobSource {

  private static final Logger log = LoggerFactory.getLogger(ItemFilterJobs.class);

  static final String NAME = "item-filter";

  /** Ids read per query while rebuilding. */
  private static final int PAGE = 10_000;

  /** How long one biz's rebuild may take before its keys expire and it is retried. */
  private static final Duration REBUILD_TIMEOUT = Duration.ofMinutes(10);

  private final ItemStore store;
  private final RedisBloomFilter filter;
  private final Bizes bizes;
  private final ItemCacheProperties properties;
  private final CronExpression cron;

  ItemFilterJobs(ItemStore store, ItemCaches caches, Bizes bizes, ItemCacheProperties properties) {
    this.store = store;
    this.filter = caches.filter();
    this.bizes = bizes;
    this.properties = properties;
    this.cron = CronExpression.parse(properties.filterCheck());
  }

  @Override
  public List<JobDefinition> jobs() {
    return List.of(new JobDefinition(new FilterJob(), cron));
  }

  private final class FilterJob implements Job {

    @Override
    public String name() {
      return NAME;
    }

    @Override
    public boolean frequent() {
      return true;
    }

    @Override
    public void run(JobContext context) {
      for (Bizes.Biz known : bizes.all()) {
        if (context.cancelled()) {
          return;
        }
        String biz = known.name();
        RedisBloomFilter.Held held = filter.held(biz);
        long ids = store.count(biz);
        RedisBloomFilter.Shape shape = properties.filterShape(ids);
        if (held == null) {
          rebuild(biz, shape, context, "none built");
        } else if (!held.shape().equals(shape)) {
          rebuild(
              biz,
              shape,
              context,
              "resized from " + held.shape().name() + " for " + ids + " ids in the database");
        } else if (held.count() < ids) {
          rebuild(
              biz, shape, context, "it holds " + held.count() + " ids, fewer than the database");
        }
      }
    }

    private void rebuild(String biz, RedisBloomFilter.Shape shape, JobContext context, String why) {
      log.info("Bloom filter of '{}': rebuilding at {} ({})", biz, shape.name(), why);
      long[] count = {0};
      boolean swapped =
          filter.rebuild(
              biz,
              shape,
              ids ->
                  store.forEachId(
                      biz,
                      PAGE,
                      id -> {
                        if (++count[0] % PAGE == 0) {
                          context.throwIfCancelled(); // the lease is lost: leave it to the holder
                        }
                        ids.accept(id);
                      }),
              REBUILD_TIMEOUT);
      if (swapped) {
        log.info(
            "Bloom filter of '{}' built from {} ids ({} bits, {} hashes)",
            biz,
            count[0],
            shape.bits(),
            shape.hashes());
      } else {
        log.warn(
            "Bloom filter of '{}': rebuild took over {}; retried next run", biz, REBUILD_TIMEOUT);
      }
    }
  }
}
