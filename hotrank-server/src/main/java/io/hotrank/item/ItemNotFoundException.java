package io.hotrank.item;

import io.hotrank.HotrankException;

/** No live item (absent or deleted) has this biz and id. Answered 404. */
public final class ItemNotFoundException extends HotrankException {

  private final String field;
  private final String biz;
  private final long id;

  /**
   * @param field the request field that named the item (for example {@code events[2].itemId}), or
   *     null when the item was named by the URL
   */
  public ItemNotFoundException(String biz, long id, String field) {
    super("Item " + biz + "/" + id + " does not exist" + (field == null ? "" : " (" + field + ")"));
    this.field = field;
    this.biz = biz;
    this.id = id;
  }

  public String biz() {
    return biz;
  }

  public long id() {
    return id;
  }

  /** The request field that named the missing item, or null. */
  public String field() {
    return field;
  }
}
