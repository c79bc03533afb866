package io.hotrank.item;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * The body of {@code POST /api/v1/items} and {@code PUT /api/v1/items/{biz}/{id}}. Every field is
 * nullable here so that validation, not JSON binding, reports what is missing; {@code createdAt} is
 * an RFC 3339 string, never a number ({@link Rfc3339Instant}).
 */
public record ItemRequest(
    @Nullable String biz,
    @Nullable Long id,
    @Nullable Long authorId,
    @Nullable String title,
    @Nullable List<String> tags,
    @JsonDeserialize(using = Rfc3339Instant.class) @Nullable Instant createdAt) {}
