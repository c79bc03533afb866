package io.hotrank.redis;

import io.hotrank.support.RedisReplicas;
import io.hotrank.support.ServiceProcesses;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The failover contract on Redis Sentinel, configured as a user does it, with Boot's {@code
 * spring.data.redis.sentinel.*}: a master, one replica and three Sentinels; the master is killed.
 */
@Tag("process")
@Isolated // its assertions bound a failover, a lease or a cycle in seconds: run alone
class SentinelFailoverProcessTest extends RedisFailoverContract {

  @RegisterExtension static final ServiceProcesses PROCESSES = new ServiceProcesses();

  @Override
  protected ServiceProcesses processes() {
    return PROCESSES;
  }

  @Override
  protected RedisReplicas startRedis(Path dir) throws Exception {
    return RedisReplicas.sentinel(dir);
  }

  @Override
  protected List<String> redisArgs(RedisReplicas redis) {
    return List.of(
        "--spring.data.redis.sentinel.master=" + RedisReplicas.MASTER_NAME,
        "--spring.data.redis.sentinel.nodes=" + redis.sentinelNodes());
  }

  @Override
  protected int masterToKill(RedisReplicas redis) throws IOException {
    return redis.sentinelMaster();
  }

  @Override
  protected boolean promoted(RedisReplicas redis, int killed) throws IOException {
    return redis.sentinelMaster() != killed;
  }
}
