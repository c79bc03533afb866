package io.hotrank.trust;

import io.hotrank.item.Rfc3339Instant;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.annotation.JsonDeserialize;

/**
 * The body of {@code PUT /api/v1/actors/{userId}}. Every field is nullable here so that validation,
 * not JSON binding, reports what is missing.
 */
record ActorRequest(
    @Schema(description = "When the platform created the account (RFC 3339); required")
        @JsonDeserialize(using = Rfc3339Instant.class)
        @Nullable Instant createdAt,
    @Schema(description = "Whether the account is a bot; absent is false") @Nullable Boolean bot,
    @Schema(description = "The platform's trust in the account, 0 to 1; absent is 1")
        @Nullable Double trust) {}
