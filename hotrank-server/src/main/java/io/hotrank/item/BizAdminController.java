package io.hotrank.item;

import io.hotrank.audit.AuditLog;
import io.hotrank.web.AdminAction;
import io.hotrank.web.Operator;
import io.hotrank.web.Role;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /api/v1/admin/bizes}: creates a biz (role admin; audited as {@code biz.create}) ({@code
 * POST {"name": "video"}}: 201 when created, 200 when it existed already) and lists the known ones,
 * each saying whether it is configured and when an admin created it.
 */
@RestController
class BizAdminController {

  static final String PATH = "/api/v1/admin/bizes";

  private final Bizes bizes;

  BizAdminController(Bizes bizes) {
    this.bizes = bizes;
  }

  /** The body of a create. */
  record CreateBody(@Nullable String name) {}

  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "201",
      description = "The biz, created",
      useReturnTypeSchema = true)
  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "200",
      description = "The biz, known already; nothing changed",
      useReturnTypeSchema = true)
  @AdminAction(Role.ADMIN)
  @PostMapping(PATH)
  ResponseEntity<Bizes.Biz> create(
      @RequestBody(required = false) @Nullable CreateBody body,
      @RequestParam(required = false) @Nullable String reason,
      Operator operator) {
    Bizes.Created created =
        bizes.create(body == null ? null : body.name(), operator.name(), AuditLog.reason(reason));
    if (created.created()) {
      return ResponseEntity.status(HttpStatus.CREATED).body(created.biz());
    }
    return ResponseEntity.status(HttpStatus.OK).body(created.biz());
  }

  @GetMapping(PATH)
  Map<String, List<Bizes.Biz>> list() {
    return Map.of("bizes", bizes.all());
  }
}
