package io.hotrank.cache;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedBulkheadMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The parts every tiered cache of the instance shares. */
@Configuration(proxyBeanMethods = false)
public class CacheConfiguration {

  /** Name of the bulkhead bean and of its metrics ({@code resilience4j_bulkhead_*}). */
  public static final String DATABASE_BULKHEAD = "cache-database";

  /** The bulkhead in front of the database for every cache miss of this instance. */
  @Bean
  Bulkhead cacheDatabaseBulkhead(CacheProperties properties, MeterRegistry meters) {
    BulkheadRegistry registry =
        BulkheadRegistry.of(
            BulkheadConfig.custom()
                .maxConcurrentCalls(properties.dbConcurrency())
                .maxWaitDuration(properties.dbWait())
                .build());
    TaggedBulkheadMetrics.ofBulkheadRegistry(registry).bindTo(meters);
    return registry.bulkhead(DATABASE_BULKHEAD);
  }

  /** Background refreshes of entries past their logical expiry: one virtual thread each. */
  @Bean(destroyMethod = "shutdownNow")
  ExecutorService cacheRefreshes() {
    return Executors.newVirtualThreadPerTaskExecutor();
  }
}
