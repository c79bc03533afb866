package io.hotrank.console;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Puts {@link ConsoleGuard} in front of every console page but the assets. */
@Configuration(proxyBeanMethods = false)
class ConsoleWebConfiguration implements WebMvcConfigurer {

  private final ConsoleSessions sessions;

  ConsoleWebConfiguration(ConsoleSessions sessions) {
    this.sessions = sessions;
  }

  @Override
  public void addInterceptors(InterceptorRegistry registry) {
    registry
        .addInterceptor(new ConsoleGuard(sessions))
        .addPathPatterns(ConsolePaths.ROOT, ConsolePaths.ROOT + "/**")
        .excludePathPatterns(ConsolePaths.ASSETS);
  }
}
