package io.hotrank.trust;

import io.hotrank.web.AdminAction;
import io.hotrank.web.Operator;
import io.hotrank.web.Role;
import org.jspecify.annotations.Nullable;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /api/v1/admin/actors/{userId}}: an actor as operators see it, and its flag (role operator;
 * audited as {@code actor.flag} and {@code actor.unflag}). A flagged actor's interactions count for
 * nothing; one the platform never sent may be flagged too.
 */
@RestController
class ActorAdminController {

  static final String PATH = "/api/v1/admin/actors/{userId}";

  private final Actors actors;

  ActorAdminController(Actors actors) {
    this.actors = actors;
  }

  /** The body of a flag. */
  record FlagBody(@Nullable String reason) {}

  @GetMapping(PATH)
  Actor get(@PathVariable long userId) {
    return actors.get(userId);
  }

  @AdminAction(Role.OPERATOR)
  @PutMapping(PATH + "/flag")
  Actor flag(
      @PathVariable long userId,
      @RequestBody(required = false) @Nullable FlagBody body,
      Operator operator) {
    return actors.flag(userId, body == null ? null : body.reason(), operator.name());
  }

  @AdminAction(Role.OPERATOR)
  @DeleteMapping(PATH + "/flag")
  Actor unflag(
      @PathVariable long userId,
      @RequestParam(required = false) @Nullable String reason,
      Operator operator) {
    return actors.unflag(userId, operator.name(), reason);
  }
}
