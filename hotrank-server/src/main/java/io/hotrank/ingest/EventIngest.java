package io.hotrank.ingest;

import io.hotrank.event.Event;
import io.hotrank.event.EventBatch;
import io.hotrank.event.EventValidator;
import io.hotrank.item.Bizes;
import io.hotrank.item.ItemNotFoundException;
import io.hotrank.item.LiveItems;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Accepts a batch of events: validates it whole, refuses it whole when an event names an absent or
 * deleted item (from the item cache; the misses of a batch in one query), and appends it to the
 * durable log. Applying it is the folder's work.
 */
public final class EventIngest {

  private final LiveItems liveItems;
  private final Bizes bizes;
  private final EventAppender appender;
  private final Clock clock;

  EventIngest(LiveItems liveItems, Bizes bizes, EventAppender appender, Clock clock) {
    this.liveItems = liveItems;
    this.bizes = bizes;
    this.appender = appender;
    this.clock = clock;
  }

  /**
   * Validates and appends a batch; returns once it is durable.
   *
   * @return the number of events accepted (all of them)
   * @throws io.hotrank.problem.InvalidRequestException naming every invalid field
   * @throws io.hotrank.item.UnknownBizException naming every event whose biz is not known
   * @throws ItemNotFoundException naming the first event whose item is absent or deleted
   * @throws IngestOverloadedException when the log is not keeping up
   */
  public int accept(EventBatch batch) {
    List<Event> events = EventValidator.validate(batch, clock.instant());
    Map<String, List<Long>> idsByBiz = new LinkedHashMap<>();
    for (Event e : events) {
      idsByBiz.computeIfAbsent(e.biz(), b -> new ArrayList<>()).add(e.itemId());
    }
    bizes.requireWritable(events, Event::biz, e -> "events[" + e.index() + "].biz");
    Map<String, List<Long>> notLive = new LinkedHashMap<>();
    idsByBiz.forEach(
        (biz, ids) -> {
          List<Long> missing = liveItems.notLive(biz, ids);
          if (!missing.isEmpty()) {
            notLive.put(biz, missing);
          }
        });
    if (!notLive.isEmpty()) {
      for (Event e : events) {
        List<Long> missing = notLive.get(e.biz());
        if (missing != null && missing.contains(e.itemId())) {
          throw new ItemNotFoundException(e.biz(), e.itemId(), "events[" + e.index() + "].itemId");
        }
      }
    }
    appender.append(events);
    return events.size();
  }
}
