package io.hotrank.item;

import io.hotrank.problem.HotrankException;
import io.hotrank.problem.ProblemType;

/**
 * A biz has handed out every generated id up to {@link ItemService#MAX_ID}: creating an item
 * without an id cannot succeed again (retrying does not help, so 409 rather than 503); items with
 * an explicit free id still can. Guards the id arithmetic against overflow.
 */
public final class ItemIdsExhaustedException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(409, "item-ids-exhausted", "Item ids exhausted");

  public ItemIdsExhaustedException(String biz) {
    super(
        TYPE,
        "Biz "
            + biz
            + " has no generated item id left (ids end at "
            + ItemService.MAX_ID
            + "); create items of it with an explicit free id");
  }
}
