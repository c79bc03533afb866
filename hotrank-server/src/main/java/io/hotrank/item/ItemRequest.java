package io.hotrank.item;

import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * The body of {@code POST /api/v1/items} and {@code PUT /api/v1/items/{biz}/{id}}. Every field is
 * nullable here so that validation, not JSON binding, reports what is missing; {@code createdAt} is
 * an RFC 3339 string, never a number ({@link Rfc3339Instant}). The values of {@code attributes} are
 * taken as any JSON value so that validation can name an attribute that is not a string (binding
 * into strings would turn {@code 5} into {@code "5"}).
 */
public record ItemRequest(
    @Nullable String biz,
    @Nullable Long id,
    @Nullable Long authorId,
    @Nullable String title,
    @Nullable List<String> tags,
    @Schema(
            description =
                "At most 8 keys matching [a-z][a-z0-9_-]{0,31}, each to a string of 1 to 64"
                    + " characters; absent is none. An edit replaces them all.",
            // The document is OpenAPI 3.1: swagger-core reads "types" there ("type" gave string).
            types = "object",
            additionalPropertiesSchema = String.class,
            maxProperties = 8,
            example = "{\"community\": \"java\", \"lang\": \"en\"}")
        @Nullable Map<String, @Nullable Object> attributes,
    @JsonDeserialize(using = Rfc3339Instant.class) @Nullable Instant createdAt) {}
