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
 * The failover contract on a Redis Cluster of three masters with a replica each ({@code
 * spring.data.redis.cluster.nodes}); the master killed is the one that owns the batch board job's
 * lease keys (their slot), so the lease, that board's keys on the same master, and a share of every
 * leaderboard's shards go through the failover.
 */
@Tag("process")
@Isolated // its assertions bound a failover, a lease or a cycle in seconds: run alone
class ClusterFailoverProcessTest extends RedisFailoverContract {

  /** The slot of the batch board job's lease keys ({@code hr:{l:board-fo-hot}...}). */
  private static final String LEASE_KEY = "hr:{l:board-fo-hot}";

  @RegisterExtension static final ServiceProcesses PROCESSES = new ServiceProcesses();

  @Override
  protected ServiceProcesses processes() {
    return PROCESSES;
  }

  @Override
  protected RedisReplicas startRedis(Path dir) throws Exception {
    return RedisReplicas.cluster(dir);
  }

  @Override
  protected List<String> redisArgs(RedisReplicas redis) {
    return List.of("--spring.data.redis.cluster.nodes=" + redis.clusterNodes());
  }

  @Override
  protected int masterToKill(RedisReplicas redis) throws IOException {
    return redis.clusterMasterOf(LEASE_KEY);
  }

  @Override
  protected boolean promoted(RedisReplicas redis, int killed) throws IOException {
    return redis.clusterOk() && redis.clusterMasterOf(LEASE_KEY) != killed;
  }
}
