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
 * instance at a time), builds the Bloom filter of every biz that has none (never built, a new biz,
 * a changed shape, or lost with Redis's data), or whose count of ids is below the database's (an
 * add was lost), from the ids in the database. Otherwise a filter is kept: creates add to it, and
 * ids are never removed. After loading items behind hotrank's back, delete the filter's key ({@code
 * <prefix>{bloom:<biz>}:*}) and the next run rebuilds it.
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
  private final CronExpression cron;

  ItemFilterJobs(ItemStore store, ItemCaches caches, ItemCacheProperties properties) {
    this.store = store;
    this.filter = caches.filter();
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
      for (String biz : store.bizes()) {
        if (context.cancelled()) {
          return;
        }
        long held = filter.count(biz);
        if (held < 0) {
          rebuild(biz, context, "none built");
        } else if (held < store.count(biz)) {
          rebuild(biz, context, "it holds " + held + " ids, fewer than the database");
        }
      }
    }

    private void rebuild(String biz, JobContext context, String why) {
      log.info("Bloom filter of '{}': rebuilding ({})", biz, why);
      long[] count = {0};
      boolean swapped =
          filter.rebuild(
              biz,
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
            filter.shape().bits(),
            filter.shape().hashes());
      } else {
        log.warn(
            "Bloom filter of '{}': rebuild took over {}; retried next run", biz, REBUILD_TIMEOUT);
      }
    }
  }
}
