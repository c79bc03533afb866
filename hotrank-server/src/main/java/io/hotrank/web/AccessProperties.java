package io.hotrank.web;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Who may write through the public API, under {@code hotrank.access.*}.
 *
 * @param ingestKeys when set, every request under {@code /api/v1/} other than a read ({@code GET},
 *     {@code HEAD}), {@code OPTIONS} or an admin call needs {@code Authorization: Bearer <one of
 *     these tokens>} (none of which may be an operator's token); unset, writes are open (for a
 *     service behind a gateway that authenticates its clients)
 */
@ConfigurationProperties("hotrank.access")
record AccessProperties(@Nullable List<IngestKey> ingestKeys) {

  /**
   * One client allowed to write, {@code hotrank.access.ingest-keys[i].*}.
   *
   * @param name the client's name, for people (never logged with its token)
   * @param token its bearer token
   */
  record IngestKey(@Nullable String name, @Nullable String token) {}
}
