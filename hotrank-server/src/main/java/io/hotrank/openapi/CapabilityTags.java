package io.hotrank.openapi;

import io.swagger.v3.oas.models.Operation;
import java.util.List;
import java.util.Locale;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.web.method.HandlerMethod;

/**
 * Names each operation after the code that serves it, so that neither a controller nor this module
 * keeps a list: the tag is the capability (the module, {@code board}, {@code task}, ...), which
 * groups Swagger UI the way {@code docs/modules} does, and the {@code operationId} is the
 * controller and method ({@code taskAdminCreate}), stable across builds for client generators
 * (springdoc's own are method names numbered in discovery order: {@code create_2}).
 */
final class CapabilityTags implements OperationCustomizer {

  private static final String ROOT = "io.hotrank.";
  private static final String CONTROLLER = "Controller";

  @Override
  public Operation customize(Operation operation, HandlerMethod handler) {
    String type = handler.getBeanType().getName();
    if (!type.startsWith(ROOT)) {
      return operation;
    }
    String rest = type.substring(ROOT.length());
    int dot = rest.indexOf('.');
    String module = dot < 0 ? "hotrank" : rest.substring(0, dot);
    operation.setTags(List.of(module));
    operation.setOperationId(operationId(handler));
    return operation;
  }

  static String operationId(HandlerMethod handler) {
    String controller = handler.getBeanType().getSimpleName();
    if (controller.endsWith(CONTROLLER) && controller.length() > CONTROLLER.length()) {
      controller = controller.substring(0, controller.length() - CONTROLLER.length());
    }
    String method = handler.getMethod().getName();
    return controller.substring(0, 1).toLowerCase(Locale.ROOT)
        + controller.substring(1)
        + method.substring(0, 1).toUpperCase(Locale.ROOT)
        + method.substring(1);
  }
}
