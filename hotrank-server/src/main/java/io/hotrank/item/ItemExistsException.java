package io.hotrank.item;

import io.hotrank.problem.FieldViolation;
import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import java.util.List;
import java.util.Map;

/** An item with this biz and id exists already (possibly deleted: ids are never reused). 409. */
public final class ItemExistsException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(409, "item-exists", "Item exists");

  public ItemExistsException(String biz, long id) {
    super(TYPE, "Item " + biz + "/" + id + " exists already");
  }

  @Override
  public Problem problem() {
    return new Problem(
        type(), getMessage(), List.of(new FieldViolation("id", "already taken")), Map.of());
  }
}
