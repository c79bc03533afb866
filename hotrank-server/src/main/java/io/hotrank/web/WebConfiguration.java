package io.hotrank.web;

import io.hotrank.HotrankProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * The servlet port's own filters: the request body limit, first of all, and the admin bearer token
 * guarding {@code /api/v1/admin/**} and {@code /actuator/metrics}, after the rate limits (which
 * count admin requests before the token is checked).
 */
@Configuration(proxyBeanMethods = false)
class WebConfiguration {

  /** Before every other filter, the rate limits' ({@code HIGHEST_PRECEDENCE + 10}) included. */
  private static final int BODY_LIMIT_ORDER = Ordered.HIGHEST_PRECEDENCE;

  /** After the rate limits, before Spring's own filters. */
  private static final int ADMIN_GUARD_ORDER = Ordered.HIGHEST_PRECEDENCE + 20;

  private final AdminToken adminToken;

  WebConfiguration(AdminProperties admin, HotrankProperties hotrank) {
    this.adminToken = AdminToken.resolve(admin.token(), hotrank.dataDir());
  }

  @Bean
  AdminToken adminToken() {
    return adminToken;
  }

  @Bean
  FilterRegistrationBean<BodyLimitFilter> bodyLimitFilter(WebProperties web) {
    FilterRegistrationBean<BodyLimitFilter> registration =
        new FilterRegistrationBean<>(new BodyLimitFilter(web.maxBodySize().toBytes()));
    registration.addUrlPatterns("/*");
    registration.setOrder(BODY_LIMIT_ORDER);
    return registration;
  }

  @Bean
  FilterRegistrationBean<AdminGuardFilter> adminGuardFilter() {
    FilterRegistrationBean<AdminGuardFilter> registration =
        new FilterRegistrationBean<>(new AdminGuardFilter(adminToken));
    registration.addUrlPatterns("/api/v1/*", "/actuator/*");
    registration.setOrder(ADMIN_GUARD_ORDER);
    return registration;
  }
}
