package io.hotrank.web;

import io.hotrank.HotrankProperties;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Guards {@code /api/v1/admin/**} with the admin bearer token. */
@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {

  private final AdminToken adminToken;

  WebConfiguration(AdminProperties admin, HotrankProperties hotrank) {
    this.adminToken = AdminToken.resolve(admin.token(), hotrank.dataDir());
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
