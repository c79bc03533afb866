package io.hotrank.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.nio.file.Path;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Guards {@code /api/v1/admin/**} with the admin bearer token. */
@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {

  private final AdminToken adminToken;

  WebConfiguration(
      @Value("${hotrank.admin.token:}") String configured,
      @Value("${hotrank.data-dir:./data}") String dataDir) {
    this.adminToken = AdminToken.resolve(configured, Path.of(dataDir));
  }

  @Bean
  AdminToken adminToken() {
    return adminToken;
  }

  @Override
  public void addInterceptors(InterceptorRegistry registry) {
    registry.addInterceptor(new AdminGuard(adminToken)).addPathPatterns("/api/v1/admin/**");
  }

  private record AdminGuard(AdminToken token) implements HandlerInterceptor {
    @Override
    public boolean preHandle(
        HttpServletRequest request, HttpServletResponse response, Object handler) {
      if (!token.matchesAuthorizationHeader(request.getHeader("Authorization"))) {
        throw new UnauthorizedException(
            "Admin endpoints need 'Authorization: Bearer <hotrank.admin.token>'");
      }
      return true;
    }
  }
}
