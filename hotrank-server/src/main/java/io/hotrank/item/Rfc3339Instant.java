package io.hotrank.item;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;

/**
 * Reads an instant of a request body (an event's {@code at}, an item's {@code createdAt}): only a
 * JSON string holding an RFC 3339 timestamp such as {@code 2026-12-01T10:00:00Z} (an offset instead
 * of {@code Z} is allowed). A JSON number is refused, as is a string of digits: whether it counts
 * seconds or milliseconds is ambiguous, and Jackson's default would read {@code 0} as 1970. Either
 * refusal is a mismatch naming the field (see {@code ProblemHandler}), never a stored event or
 * item.
 */
public final class Rfc3339Instant extends ValueDeserializer<Instant> {

  @Override
  public Instant deserialize(JsonParser parser, DeserializationContext context) {
    if (parser.currentToken() != JsonToken.VALUE_STRING) {
      throw context.wrongTokenException(
          parser, Instant.class, JsonToken.VALUE_STRING, "must be an RFC 3339 timestamp string");
    }
    String text = parser.getString().strip();
    try {
      return DateTimeFormatter.ISO_INSTANT.parse(text, Instant::from);
    } catch (DateTimeParseException e) {
      throw context.weirdStringException(text, Instant.class, "not an RFC 3339 timestamp");
    }
  }
}
