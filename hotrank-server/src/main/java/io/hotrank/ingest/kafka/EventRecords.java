package io.hotrank.ingest.kafka;

import io.hotrank.event.Event;
import io.hotrank.event.EventBatch;
import io.hotrank.event.EventValidator;
import io.hotrank.ingest.LoggedEvent;
import io.hotrank.problem.FieldViolation;
import io.hotrank.problem.InvalidRequestException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The events' record format on the topic, both ways. Key: {@code <biz>:<itemId>} in UTF-8, so that
 * an item's events share a partition and keep their order. Value: a JSON object shaped like one
 * element of {@code POST /api/v1/events}, {@code {"id"?, "biz", "itemId", "type", "userId"?,
 * "at"?}}, with {@code at} (RFC 3339) defaulting to the record's timestamp. A record is validated
 * like an event of the API; one that is not valid is a dead letter with a reason.
 */
final class EventRecords {

  /** Why a record cannot be folded: the {@code reason} of its dead letter. */
  enum Reason {
    UNPARSEABLE("unparseable"),
    UNKNOWN_TYPE("unknown-type"),
    INVALID_ITEM_ID("invalid-item-id"),
    INVALID("invalid"),
    UNKNOWN_BIZ("unknown-biz"),
    ITEM_NOT_FOUND("item-not-found");

    private final String wireName;

    Reason(String wireName) {
      this.wireName = wireName;
    }

    /** As in the dead letter's header and the metric's tag. */
    String wireName() {
      return wireName;
    }
  }

  /** A record read: its event and the event's id, or why it has none. */
  record Parsed(
      @Nullable LoggedEvent event, @Nullable String id, @Nullable Reason reason, String detail) {

    static Parsed of(LoggedEvent event, @Nullable String id) {
      return new Parsed(event, id, null, "");
    }

    static Parsed dead(Reason reason, String detail) {
      return new Parsed(null, null, reason, detail);
    }
  }

  private final JsonMapper json;

  EventRecords(JsonMapper json) {
    this.json = json;
  }

  /** The record of an accepted event. */
  ProducerRecord<String, String> toRecord(String topic, Event e) {
    Map<String, Object> value = new LinkedHashMap<>();
    if (e.id() != null) {
      value.put("id", e.id());
    }
    value.put("biz", e.biz());
    value.put("itemId", e.itemId());
    value.put("type", e.type().wireName());
    if (e.userId() != 0) {
      value.put("userId", e.userId());
    }
    value.put("at", Instant.ofEpochMilli(e.atMillis()).toString());
    // The record's timestamp is the producer's clock (retention and offsetsForTimes go by it);
    // when the event happened is in the value.
    return new ProducerRecord<>(topic, e.biz() + ":" + e.itemId(), json.writeValueAsString(value));
  }

  /**
   * Reads a record as an event whose seq is the record's offset; the biz is checked by the caller.
   */
  Parsed parse(ConsumerRecord<String, String> record) {
    return parse(record.value(), record.timestamp(), record.offset());
  }

  /** Reads a record's value as an event whose seq is {@code offset}. */
  Parsed parse(@Nullable String value, long timestampMillis, long offset) {
    if (value == null) {
      return Parsed.dead(Reason.UNPARSEABLE, "the record has no value");
    }
    EventBatch.Event wire;
    try {
      wire = json.readValue(value, EventBatch.Event.class);
    } catch (JacksonException e) {
      return Parsed.dead(Reason.UNPARSEABLE, e.getOriginalMessage());
    }
    if (wire == null) {
      return Parsed.dead(Reason.UNPARSEABLE, "the value is JSON null");
    }
    List<Event> events;
    try {
      events =
          EventValidator.validate(
              new EventBatch(List.of(wire)), Instant.ofEpochMilli(timestampMillis));
    } catch (InvalidRequestException e) {
      FieldViolation first = e.violations().getFirst();
      Reason reason =
          first.field().endsWith(".type")
              ? Reason.UNKNOWN_TYPE
              : first.field().endsWith(".itemId") ? Reason.INVALID_ITEM_ID : Reason.INVALID;
      return Parsed.dead(reason, e.getMessage().replace("events[0].", ""));
    }
    Event e = events.getFirst();
    return Parsed.of(
        new LoggedEvent(offset, e.biz(), e.itemId(), e.type(), e.userId(), e.atMillis()), e.id());
  }
}
