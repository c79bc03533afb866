package io.hotrank.web;

import io.hotrank.HotrankProperties;
import java.util.List;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The servlet port's own filters: the request body limit, first of all, and the admin bearer token
 * guarding {@code /api/v1/admin/**} and {@code /actuator/metrics}, after the rate limits (which
 * count admin requests before the token is checked); {@link FilterOrder} orders them.
 */
@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {

  private final AdminToken adminToken;

  WebConfiguration(AdminProperties admin, HotrankProperties hotrank) {
    this.adminToken = AdminToken.resolve(admin.token(), hotrank.dataDir());
  }

  @Override
  public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
    resolvers.add(new OperatorArgumentResolver());
  }

  @Bean
  AdminToken adminToken() {
    return adminToken;
  }

  @Bean
  Operators operators() {
    return new Operators(adminToken);
  }

  @Bean
  FilterRegistrationBean<BodyLimitFilter> bodyLimitFilter(WebProperties web) {
    FilterRegistrationBean<BodyLimitFilter> registration =
        new FilterRegistrationBean<>(new BodyLimitFilter(web.maxBodySize().toBytes()));
    registration.addUrlPatterns("/*");
    registration.setOrder(FilterOrder.BODY_LIMIT);
    return registration;
  }

  @Bean
  FilterRegistrationBean<AdminGuardFilter> adminGuardFilter() {
    FilterRegistrationBean<AdminGuardFilter> registration =
        new FilterRegistrationBean<>(new AdminGuardFilter(adminToken));
    registration.addUrlPatterns("/api/v1/*", "/actuator/*");
    registration.setOrder(FilterOrder.ADMIN_GUARD);
    return registration;
  }
}
