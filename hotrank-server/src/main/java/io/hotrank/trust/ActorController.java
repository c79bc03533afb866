package io.hotrank.trust;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /api/v1/actors/{userId}}: what the platform knows of the actor behind the events' {@code
 * userId}. Both the write and the read need an ingest key when keys are configured (an actor's
 * trust is the platform's business, not the public's).
 */
@RestController
class ActorController {

  static final String PATH = "/api/v1/actors/{userId}";

  private final Actors actors;

  ActorController(Actors actors) {
    this.actors = actors;
  }

  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "201",
      description = "The actor, new",
      useReturnTypeSchema = true)
  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "200",
      description = "The actor, replaced (an operator's flag stays)",
      useReturnTypeSchema = true)
  @PutMapping(PATH)
  ResponseEntity<Actor> put(
      @PathVariable long userId, @RequestBody(required = false) @Nullable ActorRequest body) {
    Actors.Put put = actors.put(userId, body);
    return ResponseEntity.status(put.created() ? HttpStatus.CREATED : HttpStatus.OK)
        .body(put.actor());
  }

  @GetMapping(PATH)
  Actor get(@PathVariable long userId) {
    return actors.get(userId);
  }
}
