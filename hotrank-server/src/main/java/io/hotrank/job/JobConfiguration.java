package io.hotrank.job;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The jobs' beans that are not components of their own. */
@Configuration(proxyBeanMethods = false)
class JobConfiguration {

  /** No faults, unless a test's component declares fault points of its own. */
  @Bean
  @ConditionalOnMissingBean
  FaultPoints faultPoints() {
    return FaultPoints.NONE;
  }
}
