package io.hotrank.item;

import io.hotrank.problem.FieldViolation;
import io.hotrank.problem.HotrankException;
import io.hotrank.problem.Problem;
import io.hotrank.problem.ProblemType;
import java.util.List;
import java.util.Map;

/**
 * A request named a biz that is neither configured nor created by an admin ({@link Bizes}). A write
 * answers 400 naming the field, and nothing of it is applied; a read answers 404, as for any other
 * path that names nothing.
 */
public final class UnknownBizException extends HotrankException {

  /** A write named an unknown biz. */
  static final ProblemType WRITE = new ProblemType(400, "unknown-biz", "Unknown biz");

  /** A read named an unknown biz. */
  static final ProblemType READ = new ProblemType(404, "unknown-biz", "Unknown biz");

  private final List<FieldViolation> violations;

  private UnknownBizException(ProblemType type, List<FieldViolation> violations) {
    super(type, summary(violations));
    this.violations = List.copyOf(violations);
  }

  /** A write whose fields (for example {@code events[3].biz}) name unknown bizes. */
  public static UnknownBizException write(List<FieldViolation> violations) {
    return new UnknownBizException(WRITE, violations);
  }

  /** A read of an unknown biz, named by {@code field} (the URL's {@code biz}, a parameter). */
  public static UnknownBizException read(String biz, String field) {
    return new UnknownBizException(READ, List.of(violation(biz, field)));
  }

  /** What an unknown biz named by {@code field} is told. */
  static FieldViolation violation(String biz, String field) {
    return new FieldViolation(
        field, "unknown biz '" + biz + "'; an admin creates it with POST /api/v1/admin/bizes");
  }

  /** The fields that named unknown bizes. */
  public List<FieldViolation> violations() {
    return violations;
  }

  @Override
  public Problem problem() {
    return new Problem(type(), getMessage(), violations, Map.of());
  }

  private static String summary(List<FieldViolation> violations) {
    FieldViolation first = violations.getFirst();
    String more = violations.size() > 1 ? " (and " + (violations.size() - 1) + " more)" : "";
    return first.field() + ": " + first.message() + more;
  }
}
