package io.hotrank.board;

import io.hotrank.item.CounterPages;
import io.hotrank.item.ItemCards;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What splits a board into segment boards ({@code hotrank.boards[i].segment-by}): an item is on the
 * board of each of its tags, of its author, or of its value of one attribute. An item with no value
 * (no tags, no such attribute) is on no segment board.
 *
 * <p>A segment is named by its value as the item carries it, and each kind knows which names could
 * ever exist, so that a read of an impossible one is a 400 rather than an empty board.
 */
public sealed interface SegmentBy {

  /** The longest segment name: an attribute value's limit, the longest of the three. */
  int MAX_SEGMENT = 64;

  /**
   * The item's segments under this split, in the item's order, without repeats. A value no URL path
   * segment can carry through servlet containers (with a slash, a backslash or a semicolon, or
   * {@code .} or {@code ..}) makes no segment board.
   */
  Set<String> segments(ItemCards.Labels item);

  /** Why a value cannot name a segment in a URL path, or null when it can. */
  static @Nullable String unroutable(String segment) {
    if (segment.equals(".") || segment.equals("..")) {
      return "a segment is not . or ..";
    }
    if (segment.indexOf('/') >= 0 || segment.indexOf('\\') >= 0 || segment.indexOf(';') >= 0) {
      return "a segment has no slash, backslash or semicolon (a URL path cannot carry them)";
    }
    return null;
  }

  /**
   * Why a segment name could never exist under this split, or null when it could: what a read of it
   * answers with a 400.
   */
  @Nullable String invalid(String segment);

  /** The setting as written: {@code tag}, {@code author} or {@code attribute:<key>}. */
  String configName();

  /** The label a scan reads for {@link #segments}. */
  CounterPages.Label label();

  /** One segment board per tag: an item with three tags is on three boards. */
  record Tag() implements SegmentBy {
    @Override
    public Set<String> segments(ItemCards.Labels item) {
      List<String> tags = item.tags();
      if (tags.size() == 1) { // most items: no set to build (a family's scan asks once per row)
        String tag = tags.getFirst();
        return unroutable(tag) == null ? Set.of(tag) : Set.of();
      }
      Set<String> segments = new LinkedHashSet<>();
      for (String tag : tags) {
        if (unroutable(tag) == null) {
          segments.add(tag);
        }
      }
      return segments;
    }

    @Override
    public @Nullable String invalid(String segment) {
      if (segment.isBlank() || !segment.strip().equals(segment)) {
        return "a tag is not blank and has no leading or trailing spaces";
      }
      if (segment.length() > ItemCards.MAX_TAG) {
        return "a tag has at most " + ItemCards.MAX_TAG + " characters";
      }
      if (segment.indexOf(',') >= 0 || hasControlCharacter(segment)) {
        return "a tag has no comma and no control character";
      }
      return unroutable(segment);
    }

    @Override
    public String configName() {
      return "tag";
    }

    @Override
    public CounterPages.Label label() {
      return CounterPages.Label.TAGS;
    }
  }

  /** One segment board per author, named by the author id in decimal. */
  record Author() implements SegmentBy {
    private static final Pattern ID = Pattern.compile("0|[1-9][0-9]{0,18}");

    @Override
    public Set<String> segments(ItemCards.Labels item) {
      return Set.of(Long.toString(item.authorId()));
    }

    @Override
    public @Nullable String invalid(String segment) {
      if (!ID.matcher(segment).matches()) {
        return "an author segment is an author id in decimal, without leading zeros";
      }
      try {
        Long.parseLong(segment);
        return null;
      } catch (NumberFormatException e) {
        return "an author segment is an author id in decimal, without leading zeros";
      }
    }

    @Override
    public String configName() {
      return "author";
    }

    @Override
    public CounterPages.Label label() {
      return CounterPages.Label.AUTHOR;
    }
  }

  /** One segment board per value of one attribute, {@code attribute:<key>}. */
  record Attribute(String key) implements SegmentBy {
    @Override
    public Set<String> segments(ItemCards.Labels item) {
      String value = item.attributes().get(key);
      return value == null || unroutable(value) != null ? Set.of() : Set.of(value);
    }

    @Override
    public @Nullable String invalid(String segment) {
      if (segment.isEmpty() || segment.length() > MAX_SEGMENT) {
        return "an attribute value has 1 to " + MAX_SEGMENT + " characters";
      }
      if (hasControlCharacter(segment)) {
        return "an attribute value has no control character";
      }
      return unroutable(segment);
    }

    @Override
    public String configName() {
      return "attribute:" + key;
    }

    @Override
    public CounterPages.Label label() {
      return CounterPages.Label.ATTRIBUTES;
    }
  }

  /**
   * Parses the setting.
   *
   * @return null for an unset setting
   * @throws IllegalArgumentException naming what is wrong
   */
  static @Nullable SegmentBy parse(@Nullable String setting) {
    if (setting == null || setting.isBlank()) {
      return null;
    }
    if (setting.equals("tag")) {
      return new Tag();
    }
    if (setting.equals("author")) {
      return new Author();
    }
    if (setting.startsWith("attribute:")) {
      String key = setting.substring("attribute:".length());
      if (!ItemCards.ATTRIBUTE_KEY.matcher(key).matches()) {
        throw new IllegalArgumentException(
            "'" + setting + "': the attribute key must match " + ItemCards.ATTRIBUTE_KEY.pattern());
      }
      return new Attribute(key);
    }
    throw new IllegalArgumentException(
        "'" + setting + "' is unknown; expected tag, author or attribute:<key>");
  }

  private static boolean hasControlCharacter(String s) {
    return s.chars().anyMatch(Character::isISOControl);
  }
}
