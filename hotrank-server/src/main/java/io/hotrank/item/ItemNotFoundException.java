package io.hotrank.item;

import io.hotrank.problem.FieldViolation;
import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** No live item (absent or deleted) has this biz and id. Answered 404. */
public final class ItemNotFoundException extends HotrankException {

  static final ProblemType TYPE = new ProblemType(404, "item-not-found", "Item not found");

  private final @Nullable String field;
  private final String biz;
  private final long id;

  /**
   * @param field the request field that named the item (for example {@code events[2].itemId}), or
   *     null when the item was named by the URL
   */
  public ItemNotFoundException(String biz, long id, @Nullable String field) {
    super(
        TYPE,
        "Item " + biz + "/" + id + " does not exist" + (field == null ? "" : " (" + field + ")"));
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

  /** The request field that named the missing item, or null when the URL named it. */
  public @Nullable String field() {
    return field;
  }

  @Override
  public Problem problem() {
    List<FieldViolation> errors =
        field == null ? List.of() : List.of(new FieldViolation(field, "no such item"));
    return new Problem(type(), getMessage(), errors, Map.of());
  }
}
