package io.hotrank.web;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * Which storage failures are the client's to retry (503 with Retry-After) and which are bugs (500):
 * an outage, a full pool or a timeout is retryable; bad SQL or a broken constraint is not, and
 * saying "try again" would only repeat it.
 */
class ProblemHandlerTest {

  @RestController
  static class Failing {
    @GetMapping("/fail/{kind}")
    String fail(@PathVariable String kind) {
      throw switch (kind) {
        case "timeout" -> new QueryTimeoutException("statement timed out");
        case "pool" -> new CannotGetJdbcConnectionException("pool exhausted");
        case "tx" -> new CannotCreateTransactionException("no connection for the transaction");
        case "redis" -> new RedisConnectionFailureException("connection refused");
        case "grammar" -> new BadSqlGrammarException("scan", "SELECT nonsense", null);
        case "constraint" -> new DataIntegrityViolationException("duplicate key");
        default -> new IllegalStateException("unexpected");
      };
    }
  }

  private final MockMvc mvc =
      MockMvcBuilders.standaloneSetup(new Failing())
          .setControllerAdvice(new ProblemHandler(io.hotrank.time.Ticker.system()))
          .build();

  @Test
  void outagesTimeoutsAndExhaustedPools_are503_withRetryAfter() throws Exception {
    for (String kind : new String[] {"timeout", "pool", "tx", "redis"}) {
      mvc.perform(get("/fail/" + kind))
          .andExpect(status().isServiceUnavailable())
          .andExpect(header().string("Retry-After", "5"))
          .andExpect(header().string("Content-Type", "application/problem+json"))
          .andExpect(jsonPath("$.type").value("https://hotrank.io/problems/storage-unavailable"));
    }
  }

  @Test
  void badSqlBrokenConstraintsAndTheUnexpected_are500Problems_withoutTheirMessage()
      throws Exception {
    for (String kind : new String[] {"grammar", "constraint", "other"}) {
      mvc.perform(get("/fail/" + kind))
          .andExpect(status().isInternalServerError())
          .andExpect(header().doesNotExist("Retry-After"))
          .andExpect(jsonPath("$.type").value("https://hotrank.io/problems/internal"))
          .andExpect(jsonPath("$.detail").value("The server failed; see its log"));
    }
  }
}
