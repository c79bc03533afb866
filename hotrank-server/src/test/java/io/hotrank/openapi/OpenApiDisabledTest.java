package io.hotrank.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.support.HttpJson;
import io.hotrank.support.TestData;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

/**
 * What docs/operations.md tells a production that wants no API browsing: with the document and
 * Swagger UI turned off, neither is served, and the API itself is unchanged.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@TestPropertySource(
    properties = {
      "hotrank.data-dir=" + TestData.DIR + "openapi-off",
      "springdoc.api-docs.enabled=false",
      "springdoc.swagger-ui.enabled=false"
    })
class OpenApiDisabledTest {

  static {
    TestData.empty("openapi-off");
  }

  @LocalServerPort int port;

  @Test
  void turnedOff_theDocumentAndTheUiAreNotServed() {
    HttpJson http = new HttpJson("http://127.0.0.1:" + port, "test-admin-token");
    for (String path :
        new String[] {
          "/v3/api-docs", "/v3/api-docs.yaml", "/swagger-ui.html", "/swagger-ui/index.html"
        }) {
      assertThat(http.get(path).status()).as(path).isEqualTo(404);
    }
    assertThat(http.get("/api/v1/boards").status()).isEqualTo(200);
  }
}
