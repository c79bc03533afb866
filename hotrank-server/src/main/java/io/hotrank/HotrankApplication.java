package io.hotrank;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.modulith.Modulithic;

/** Entry point of the hotrank service. */
@SpringBootApplication
@ConfigurationPropertiesScan
@Modulithic(sharedModules = {"problem", "time"})
public class HotrankApplication {

  /**
   * Starts the service. With no Redis and no datasource configured it runs on the embedded default
   * (see {@code io.hotrank.embedded}).
   *
   * @param args Spring Boot command-line arguments, for example {@code --hotrank.demo.enabled=true}
   */
  public static void main(String[] args) {
    SpringApplication.run(HotrankApplication.class, args);
  }
}
