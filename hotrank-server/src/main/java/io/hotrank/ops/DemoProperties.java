package io.hotrank.ops;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Demo traffic, under {@code hotrank.demo.*}: seeded items and a steady stream of interactions, so
 * that a new user watches a board move without writing a client.
 *
 * @param enabled whether to seed items and send demo traffic after startup
 * @param biz the biz the demo items belong to
 * @param items how many items to seed
 * @param eventsPerSecond interactions sent per second
 * @param zipfExponent skew of the popularity distribution: rank r gets weight 1 / r^exponent
 */
@ConfigurationProperties("hotrank.demo")
record DemoProperties(
    @DefaultValue("false") boolean enabled,
    @DefaultValue("article") String biz,
    @DefaultValue("300") int items,
    @DefaultValue("50") int eventsPerSecond,
    @DefaultValue("1.1") double zipfExponent) {

  DemoProperties {
    if (items < 1 || eventsPerSecond < 1) {
      throw new IllegalArgumentException(
          "hotrank.demo.items and hotrank.demo.events-per-second must be at least 1");
    }
    if (zipfExponent <= 0) {
      throw new IllegalArgumentException(
          "hotrank.demo.zipf-exponent=" + zipfExponent + " must be positive");
    }
  }
}
