package io.hotrank.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/**
 * The embedded Redis process as the embedded default starts it: on 127.0.0.1 only, in protected
 * mode, refusing clients without its password, with a maxmemory that evicts nothing, and
 * restartable on its port after a stop. Runs the binary the embedded default would choose here.
 */
class EmbeddedRedisTest {

  private EmbeddedRedis redis;

  @AfterEach
  void stop() {
    if (redis != null) {
      redis.stop();
    }
  }

  private EmbeddedRedis launch(DataSize maxMemory) {
    RedisBinary binary = RedisBinary.choose("", System.getenv("PATH"));
    redis = EmbeddedRedis.launch(binary.path(), maxMemory.toBytes());
    return redis;
  }

  @Test
  void aClientWithoutThePassword_isRefused_andWithIt_served() throws Exception {
    launch(DataSize.ofMegabytes(256));
    try (RespClient client = new RespClient(redis.port())) {
      assertThat(client.command("PING")).startsWith("-NOAUTH");
      assertThat(client.command("SET", "k", "v")).startsWith("-NOAUTH");
      assertThat(client.command("AUTH", "not-" + redis.password())).startsWith("-WRONGPASS");
      assertThat(client.command("AUTH", redis.password())).isEqualTo("+OK");
      assertThat(client.command("PING")).isEqualTo("+PONG");
      assertThat(client.command("CONFIG", "GET", "bind")).isEqualTo("bind 127.0.0.1");
      assertThat(client.command("CONFIG", "GET", "protected-mode")).isEqualTo("protected-mode yes");
      assertThat(client.command("CONFIG", "GET", "maxmemory"))
          .isEqualTo("maxmemory " + DataSize.ofMegabytes(256).toBytes());
      assertThat(client.command("CONFIG", "GET", "maxmemory-policy"))
          .isEqualTo("maxmemory-policy noeviction");
    }
  }

  @Test
  void thePassword_isNotOnTheCommandLine_andNewForEachLaunch() throws Exception {
    launch(DataSize.ofMegabytes(256));
    String cmdline = Files.readString(Path.of("/proc/" + redis.pid() + "/cmdline"));
    assertThat(cmdline).contains("redis-server").doesNotContain(redis.password());
    assertThat(redis.password()).matches("[A-Za-z0-9_-]{43}");
    assertThat(EmbeddedRedis.newPassword()).isNotEqualTo(redis.password());
  }

  @Test
  void whenFull_writesAreRefusedWithOom_andNothingIsEvicted() throws Exception {
    launch(DataSize.ofMegabytes(2));
    String value = "x".repeat(64 * 1024);
    try (RespClient client = new RespClient(redis.port())) {
      client.command("AUTH", redis.password());
      assertThat(client.command("SET", "lease", "holder", "PX", "600000")).isEqualTo("+OK");
      String answer = "+OK";
      int written = 0;
      while (answer.equals("+OK") && written < 1000) {
        answer = client.command("SET", "fill:" + written++, value);
      }
      assertThat(answer).startsWith("-OOM command not allowed");
      // noeviction: the key with a TTL (a lease) and the first filler are still there
      assertThat(client.command("GET", "lease")).isEqualTo("holder");
      assertThat(client.command("EXISTS", "fill:0")).isEqualTo(":1");
      // reads and deletes still work, and free memory for writes
      for (int i = 0; i < written; i++) {
        client.command("DEL", "fill:" + i);
      }
      assertThat(client.command("SET", "again", "v")).isEqualTo("+OK");
    }
  }

  @Test
  void afterAStop_startsAgainOnTheSamePortWithTheSamePassword() throws Exception {
    launch(DataSize.ofMegabytes(256));
    int port = redis.port();
    redis.stop();
    assertThat(redis.isRunning()).isFalse();
    redis.start();
    assertThat(redis.isRunning()).isTrue();
    assertThat(redis.port()).isEqualTo(port);
    try (RespClient client = new RespClient(port)) {
      assertThat(client.command("AUTH", redis.password())).isEqualTo("+OK");
      assertThat(client.command("PING")).isEqualTo("+PONG");
    }
  }
}
