package io.hotrank.item;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import org.springframework.stereotype.Component;

/** {@link ItemCards} from the counters table and the writes the item caches hear of. */
@Component
class BoardItemCards implements ItemCards {

  private final CounterStore counters;
  private final ItemStore store;
  private final ItemCacheWrites writes;
  private final Duration trustedFor;

  BoardItemCards(
      CounterStore counters,
      ItemStore store,
      ItemCacheWrites writes,
      ItemCacheProperties properties) {
    this.trustedFor = properties.metadataFresh();
    this.counters = counters;
    this.store = store;
    this.writes = writes;
  }

  @Override
  public Map<Long, Card> cards(String biz, Collection<Long> ids) {
    return counters.cards(biz, ids);
  }

  @Override
  public Map<Long, Heading> headings(String biz, Collection<Long> ids) {
    return store.headings(biz, ids);
  }

  @Override
  public Map<Long, Labels> labels(String biz, Collection<Long> ids) {
    return store.labels(biz, ids);
  }

  @Override
  public long writesSeen() {
    return writes.writesSeen();
  }

  @Override
  public Duration trustedFor() {
    return trustedFor;
  }
}
