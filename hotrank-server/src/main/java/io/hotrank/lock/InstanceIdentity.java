package io.hotrank.lock;

import io.hotrank.time.Ticker;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds this process's {@link InstanceId} at start, and holds what keeps it exclusive while the
 * process lives. In order:
 *
 * <ol>
 *   <li>{@code hotrank.instance-id} when set (a StatefulSet's pod name, say). It is exclusive once
 *       the presence check passes: the process takes the lease {@code instance:<id>} in the
 *       database and keeps it. If a process of the same id holds it, the check waits for it to be
 *       renewed (that process is alive: this one refuses to start) or to expire (it died: this one
 *       takes its place). A crash-restart thus waits at most {@link #PRESENCE_TTL}.
 *   <li>The data directory's id, when this process can lock {@code <data-dir>/instance.lock}: the
 *       operating system releases the lock when its holder dies, even by {@code kill -9}, so a
 *       process that gets it knows the directory's previous user is gone. The id is kept in {@code
 *       <data-dir>/instance-id} ({@code <host name>-<8 hex digits>}, written on first use).
 *   <li>{@code <host name>-<process id>}, not exclusive: host names can repeat across machines, so
 *       leases held under it are left to expire rather than taken over.
 * </ol>
 */
public final class InstanceIdentity implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(InstanceIdentity.class);

  /** How long the presence lease of a configured id lasts unrenewed (renewed every third). */
  public static final Duration PRESENCE_TTL = Duration.ofSeconds(3);

  private final InstanceId id;
  private final @Nullable FileChannel lockFile;
  private volatile @Nullable HeldLease presence;
  private @Nullable LeaseStore store;
  private @Nullable LeaseWatchdog watchdog;
  private volatile boolean closed;

  /** For a configured id: whether this process holds its presence lease now. */
  private AtomicBoolean present = new AtomicBoolean(true);

  /**
   * Data directories this JVM holds locked, by path: a second channel on the lock file, even one
   * closed at once, would drop the first one's lock (POSIX locks belong to the process, and closing
   * any channel on the file releases them all), so a second context of this JVM never opens one.
   */
  private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

  private @Nullable Path heldDir;

  private InstanceIdentity(InstanceId id, @Nullable FileChannel lockFile) {
    this.id = id;
    this.lockFile = lockFile;
  }

  public InstanceId id() {
    return id;
  }

  /**
   * The identity of a configured id, after the presence check in {@code store} (a store built for
   * {@code InstanceId.of(configured)}, so that its tokens carry the same incarnation as the
   * result).
   *
   * @throws IllegalStateException if a live process already carries the id
   */
  static InstanceIdentity configured(
      InstanceId probe, LeaseStore store, LeaseWatchdog watchdog, Ticker ticker) {
    AtomicBoolean present = new AtomicBoolean();
    InstanceIdentity identity =
        new InstanceIdentity(
            new InstanceId(probe.value(), probe.incarnation(), present::get), null);
    identity.present = present;
    identity.store = store;
    identity.watchdog = watchdog;
    String name = identity.presenceName();
    long deadline = ticker.read() + PRESENCE_TTL.plusSeconds(2).toNanos();
    long lastLeft = Long.MAX_VALUE;
    while (true) {
      Optional<HeldLease> held =
          watchdog.acquire(store, name, PRESENCE_TTL, 0, identity::presenceLost);
      if (held.isPresent()) {
        identity.presence = held.get();
        present.set(true);
        return identity;
      }
      LeaseState state = store.inspect(name);
      if (state.holder() != null && state.expiresInMillis() > lastLeft) {
        throw new IllegalStateException(
            "hotrank.instance-id="
                + probe.value()
                + " is in use by another live process (its presence lease was renewed):"
                + " give each instance an id of its own");
      }
      if (ticker.read() - deadline > 0) {
        throw new IllegalStateException(
            "hotrank.instance-id=" + probe.value() + ": its presence lease never came free");
      }
      if (state.holder() != null) {
        lastLeft = state.expiresInMillis();
        log.info(
            "hotrank.instance-id={} is still present from an earlier process; waiting up to"
                + " {} ms to tell whether it is alive",
            probe.value(),
            lastLeft);
      }
      LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
    }
  }

  /**
   * The data directory's identity if this process can lock it, else the per-process fallback.
   *
   * @param dataDir {@code hotrank.data-dir}, created if missing
   */
  static InstanceIdentity fromDataDir(Path dataDir) {
    Path dir = dataDir.toAbsolutePath().normalize();
    if (HELD.add(dir)) {
      FileChannel channel = null;
      try {
        createPrivately(dir);
        channel =
            FileChannel.open(
                dir.resolve("instance.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = channel.tryLock();
        if (lock != null) {
          InstanceId id = new InstanceId(storedId(dir), InstanceId.newIncarnation(), true);
          log.info("Instance id {} (kept in {}, which this process holds)", id.value(), dir);
          InstanceIdentity identity = new InstanceIdentity(id, channel);
          identity.heldDir = dir;
          return identity;
        }
        channel.close();
      } catch (IOException | RuntimeException e) {
        closeQuietly(channel);
        log.warn("hotrank.data-dir {} cannot hold the instance id: {}", dir, e.toString());
      }
      HELD.remove(dir);
    }
    InstanceId fallback = InstanceId.of(perProcess());
    log.info(
        "Instance id {}: hotrank.data-dir {} is used by another process and hotrank.instance-id is"
            + " unset, so leases this name held in an earlier life are left to expire",
        fallback.value(),
        dir);
    return new InstanceIdentity(fallback, null);
  }

  /**
   * Creates the data directory if missing, readable by this user only where the file system has
   * POSIX permissions: it holds the embedded database and the instance's identity.
   */
  private static void createPrivately(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return;
    }
    if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      Files.createDirectories(
          dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } else {
      Files.createDirectories(dir);
    }
  }

  private static String storedId(Path dataDir) throws IOException {
    Path file = dataDir.resolve("instance-id");
    if (Files.exists(file)) {
      String stored = Files.readString(file, StandardCharsets.UTF_8).strip();
      if (!stored.isEmpty()) {
        return stored;
      }
    }
    String host = host();
    String id = host.substring(0, Math.min(host.length(), 91)) + "-" + InstanceId.newIncarnation();
    Files.writeString(file, id + "\n", StandardCharsets.UTF_8);
    return id;
  }

  private static String perProcess() {
    String host = host();
    String pid = "-" + ProcessHandle.current().pid();
    return host.substring(0, Math.min(host.length(), 100 - pid.length())) + pid;
  }

  private static String host() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      host = "localhost";
    }
    return host.isBlank() ? "localhost" : host.replace('/', '-');
  }

  private String presenceName() {
    return "instance:" + id.value();
  }

  /**
   * A lost presence lease (the database was out longer than {@link #PRESENCE_TTL}) is taken again
   * once the database answers; while it is not held, a second process started with the same id
   * would take this one's leases (the fences then refuse this one's writes).
   */
  private void presenceLost(HeldLease lease, String reason) {
    // Until it holds the lease again, another process may carry the id: take nothing over.
    present.set(false);
    log.warn("Instance {}: presence lease lost ({}); taking it again", id.value(), reason);
    Thread.ofVirtual().name("instance-presence").start(this::retakePresence);
  }

  private void retakePresence() {
    LeaseStore presenceStore = java.util.Objects.requireNonNull(store);
    while (!closed) {
      try {
        Optional<HeldLease> held =
            java.util.Objects.requireNonNull(watchdog)
                .acquire(presenceStore, presenceName(), PRESENCE_TTL, 0, this::presenceLost);
        if (held.isPresent()) {
          presence = held.get();
          present.set(true);
          log.info("Instance {}: presence lease taken again", id.value());
          return;
        }
        log.error(
            "Instance {}: another process holds this instance's presence lease: two processes"
                + " run with hotrank.instance-id={}; give each its own",
            id.value(),
            id.value());
        return;
      } catch (RuntimeException e) {
        LockSupport.parkNanos(Duration.ofSeconds(1).toNanos());
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    HeldLease held = presence;
    if (held != null) {
      held.release();
    }
    closeQuietly(lockFile);
    if (heldDir != null) {
      HELD.remove(heldDir);
    }
  }

  private static void closeQuietly(@Nullable FileChannel channel) {
    if (channel == null) {
      return;
    }
    try {
      channel.close(); // and with it the lock
    } catch (IOException e) {
      log.debug("closing the instance lock file: {}", e.toString());
    }
  }
}
