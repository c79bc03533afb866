package io.hotrank.ingest;

import io.hotrank.event.Event;
import io.hotrank.event.EventBatch;
import io.hotrank.event.EventValidator;
import io.hotrank.idempotency.IdempotencyClaim;
import io.hotrank.item.Bizes;
import io.hotrank.item.ItemNotFoundException;
import io.hotrank.item.LiveItems;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

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
  private final Counter repeats;

  /**
   * @param repeats counts the events left out for repeating an id within their batch (the sink
   *     counts those it leaves out, in the same counter)
   */
  EventIngest(
      LiveItems liveItems, Bizes bizes, EventAppender appender, Clock clock, Counter repeats) {
    this.liveItems = liveItems;
    this.bizes = bizes;
    this.appender = appender;
    this.clock = clock;
    this.repeats = repeats;
  }

  /**
   * What a batch's answer says: how many of its events count, and how many were left out as
   * duplicates (an id repeated within the batch, or, on the event log, accepted before).
   */
  public record Accepted(int accepted, int duplicates) {}

  /**
   * Validates and appends a batch; returns once it is durable.
   *
   * @param claim the request's idempotency key, when it has one
   * @return how many events were accepted and how many were duplicates
   * @throws io.hotrank.problem.InvalidRequestException naming every invalid field
   * @throws io.hotrank.item.UnknownBizException naming every event whose biz is not known
   * @throws ItemNotFoundException naming the first event whose item is absent or deleted
   * @throws IngestOverloadedException when the log is not keeping up
   */
  public Accepted accept(EventBatch batch, @Nullable IdempotencyClaim claim) {
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
    List<Event> once = withoutRepeats(events);
    int repeats = events.size() - once.size();
    int duplicates;
    try {
      duplicates = appender.append(new EventSink.Batch(once, repeats, claim));
    } catch (IngestOverloadedException refused) {
      if (claim != null) {
        claim.nothingApplied(); // refused whole: its key is free for the retry
      }
      throw refused;
    }
    this.repeats.increment(repeats);
    return new Accepted(once.size() - duplicates, repeats + duplicates);
  }

  /** The events but those repeating the biz and id of an event before them in the batch. */
  private static List<Event> withoutRepeats(List<Event> events) {
    if (events.stream().allMatch(e -> e.id() == null)) {
      return events;
    }
    Set<String> seen = new HashSet<>();
    List<Event> once = new ArrayList<>(events.size());
    for (Event e : events) {
      // An id has no '/': "biz/id" names one pair.
      if (e.id() == null || seen.add(e.biz() + "/" + e.id())) {
        once.add(e);
      }
    }
    return once;
  }

  /** Events accepted by this instance and not yet written to the source. */
  public int queuedEvents() {
    return appender.queuedEvents();
  }

  /**
   * The counter of events left out as duplicates of events accepted before ({@code
   * hotrank.ingest.events.duplicates}), for the source named {@code source}: those left out here
   * (repeats within a batch) and those the source leaves out.
   */
  public static Counter duplicates(MeterRegistry meters, String source) {
    return meters.counter("hotrank.ingest.events.duplicates", "source", source);
  }
}
