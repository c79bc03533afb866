package io.hotrank.item;

import java.time.Instant;
import java.util.List;

/**
 * The body of {@code POST /api/v1/items} and {@code PUT /api/v1/items/{biz}/{id}}. Every field is
 * nullable here so that validation, not JSON binding, reports what is missing.
 */
public record ItemRequest(
    String biz, Long id, Long authorId, String title, List<String> tags, Instant createdAt) {}
