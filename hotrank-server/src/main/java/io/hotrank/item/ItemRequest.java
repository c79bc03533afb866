package io.hotrank.item;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The body of {@code POST /api/v1/items} and {@code PUT /api/v1/items/{biz}/{id}}. Every field is
 * nullable here so that validation, not JSON binding, reports what is missing.
 */
public record ItemRequest(
    @Nullable String biz,
    @Nullable Long id,
    @Nullable Long authorId,
    @Nullable String title,
    @Nullable List<String> tags,
    @Nullable Instant createdAt) {}
