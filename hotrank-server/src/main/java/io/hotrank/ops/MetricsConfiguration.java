package io.hotrank.ops;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import java.util.List;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Keeps host paths out of the metrics {@code /actuator/prometheus} serves to anyone: Boot's disk
 * space gauges ({@code disk.free}, {@code disk.total}) name the directory they measure, the working
 * directory by default, in a {@code path} tag. The tag is dropped; the gauges stay, since free disk
 * is worth an alert. With several {@code management.metrics.system.diskspace.paths}, the gauges
 * would then share one name and tags, and only the first path's would be kept.
 */
@Configuration(proxyBeanMethods = false)
class MetricsConfiguration {

  /** The disk space meters' tag naming a directory. */
  static final String PATH_TAG = "path";

  @Bean
  MeterFilter noHostPathsInMetrics() {
    return new MeterFilter() {
      @Override
      public Meter.Id map(Meter.Id id) {
        if (!id.getName().startsWith("disk.") || id.getTag(PATH_TAG) == null) {
          return id;
        }
        List<Tag> kept = id.getTags().stream().filter(t -> !t.getKey().equals(PATH_TAG)).toList();
        return id.replaceTags(kept);
      }
    };
  }
}
