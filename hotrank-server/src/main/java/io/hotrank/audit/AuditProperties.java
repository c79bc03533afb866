package io.hotrank.audit;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How long the audit log keeps its entries, under {@code hotrank.admin.*}.
 *
 * @param auditRetention entries older than this are deleted by the job {@code audit-prune} (hourly,
 *     in bounded batches)
 */
@ConfigurationProperties("hotrank.admin")
record AuditProperties(@DefaultValue("90d") Duration auditRetention) {

  AuditProperties {
    if (auditRetention.isNegative() || auditRetention.isZero()) {
      throw new IllegalArgumentException(
          "hotrank.admin.audit-retention must be positive, was " + auditRetention);
    }
  }
}
