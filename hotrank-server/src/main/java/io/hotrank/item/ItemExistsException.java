package io.hotrank.item;

import io.hotrank.HotrankException;

/** An item with this biz and id exists already (possibly deleted: ids are never reused). 409. */
public final class ItemExistsException extends HotrankException {

  public ItemExistsException(String biz, long id) {
    super("Item " + biz + "/" + id + " exists already");
  }
}
