package io.hotrank.openapi;

import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.core.converter.ModelConverter;
import io.swagger.v3.core.converter.ModelConverterContext;
import io.swagger.v3.oas.models.media.Schema;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Iterator;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Marks every component of an answer's or a body's record required in the document unless it is
 * {@link Nullable}: hotrank's packages are null-marked, so a component without the annotation is
 * always there, and a client typed from the document (openapi-typescript, for one) should not have
 * to test for it. swagger-core reads no JSpecify annotations, hence this converter.
 */
final class RequiredComponents implements ModelConverter {

  @Override
  @SuppressWarnings({"rawtypes", "unchecked"})
  public @Nullable Schema resolve(
      AnnotatedType type, ModelConverterContext context, Iterator<ModelConverter> chain) {
    Schema schema = chain.hasNext() ? chain.next().resolve(type, context, chain) : null;
    Class<?> raw = rawClass(type.getType());
    if (schema == null || raw == null || !raw.isRecord()) {
      return schema;
    }
    Schema target = schema;
    if (schema.get$ref() != null) {
      String name = schema.get$ref().substring(schema.get$ref().lastIndexOf('/') + 1);
      target = context.getDefinedModels().get(name);
    }
    if (target == null || target.getProperties() == null) {
      return schema;
    }
    Map<String, Schema> properties = target.getProperties();
    for (RecordComponent component : raw.getRecordComponents()) {
      boolean nullable =
          component.getAnnotatedType().isAnnotationPresent(Nullable.class)
              || component.isAnnotationPresent(Nullable.class);
      if (!nullable
          && properties.containsKey(component.getName())
          && (target.getRequired() == null
              || !target.getRequired().contains(component.getName()))) {
        target.addRequiredItem(component.getName());
      }
    }
    return schema;
  }

  private static @Nullable Class<?> rawClass(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof com.fasterxml.jackson.databind.JavaType j) {
      return j.getRawClass();
    }
    return null;
  }
}
