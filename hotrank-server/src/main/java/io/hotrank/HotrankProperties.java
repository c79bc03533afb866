package io.hotrank;

import java.nio.file.Path;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the whole service under {@code hotrank.*} that belong to no one capability. Each
 * capability binds its own prefix (for example {@code hotrank.board}, {@code hotrank.redis}); the
 * board declarations, a list, bind as {@code hotrank.boards}.
 *
 * @param dataDir where the embedded default keeps its H2 database, and where a generated admin
 *     token and the instance id are stored
 * @param instanceId how this instance names itself in lease tokens, task runs, job logs and the
 *     admin view; empty means the id kept in the data directory, or {@code <host name>-<process
 *     id>} when another process holds the directory ({@code io.hotrank.lock.InstanceIdentity})
 */
@ConfigurationProperties("hotrank")
public record HotrankProperties(
    @DefaultValue("./data") Path dataDir, @DefaultValue("") String instanceId) {}
