package io.hotrank.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The role an admin handler method needs, checked before the method runs; a caller with a lesser
 * role gets {@code 403 forbidden}. Without this annotation an admin method fails closed: a {@code
 * GET} or {@code HEAD} needs {@link Role#VIEWER}, any other method {@link Role#ADMIN}. Every admin
 * method that changes something carries it, so that the role it needs is written beside it (a test
 * checks that).
 *
 * <pre>{@code
 * @AdminAction(Role.OPERATOR)
 * @PostMapping("/api/v1/admin/boards/{name}/recompute")
 * Map<String, Object> recompute(@PathVariable String name, Operator operator) { ... }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface AdminAction {

  /** The least role that may call the method. */
  Role value();
}
