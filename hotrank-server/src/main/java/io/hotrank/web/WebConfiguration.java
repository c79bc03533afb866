package io.hotrank.web;

import io.hotrank.HotrankProperties;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The servlet port's own filters: the request body limit, first of all; the ingest keys, when
 * configured, after the rate limits; and the operators' tokens guarding {@code /api/v1/admin/**}
 * and {@code /actuator/metrics}, after the rate limits (which count admin requests before the token
 * is checked); {@link FilterOrder} orders them. Then, in Spring MVC, the role each admin handler
 * needs ({@link AdminRoleInterceptor}).
 */
@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {

  private static final Logger log = LoggerFactory.getLogger(WebConfiguration.class);

  private final Operators operators;

  WebConfiguration(AdminProperties admin, HotrankProperties hotrank) {
    this.operators =
        Operators.of(
            AdminToken.resolve(admin.token(), hotrank.dataDir()),
            admin.operators() == null ? List.of() : admin.operators());
    log.info(
        "Operators: {}",
        operators.all().stream().map(o -> o.name() + " (" + o.role().configName() + ")").toList());
  }

  @Override
  public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
    resolvers.add(new OperatorArgumentResolver());
  }

  @Override
  public void addInterceptors(InterceptorRegistry registry) {
    registry.addInterceptor(new AdminRoleInterceptor());
  }

  @Bean
  Operators operators() {
    return operators;
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
        new FilterRegistrationBean<>(new AdminGuardFilter(operators));
    registration.addUrlPatterns("/api/v1/*", "/actuator/*");
    registration.setOrder(FilterOrder.ADMIN_GUARD);
    return registration;
  }

  /** Registered, but disabled when no ingest keys are configured (writes open). */
  @Bean
  FilterRegistrationBean<IngestKeyFilter> ingestKeyFilter(AccessProperties access) {
    IngestKeyFilter filter = IngestKeyFilter.of(access.ingestKeys(), operators);
    FilterRegistrationBean<IngestKeyFilter> registration = new FilterRegistrationBean<>(filter);
    registration.addUrlPatterns("/api/v1/*");
    registration.setOrder(FilterOrder.INGEST_KEYS);
    registration.setEnabled(filter.required());
    return registration;
  }
}
