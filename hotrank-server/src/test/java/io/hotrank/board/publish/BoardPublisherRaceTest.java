package io.hotrank.board.publish;

import static org.assertj.core.api.Assertions.assertThat;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardProperties;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSnapshot;
import io.hotrank.item.Item;
import io.hotrank.redis.HotrankRedisProperties;
import io.hotrank.support.ApiTestSupport;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * A computation and a control's re-publish racing on one board, each interleaving forced at the
 * exact step it needs (a Redis store that runs the other side when a version is taken or the fence
 * read), so that the outcome is the same on every run: the newest computation is what goes live,
 * whichever of the two takes the higher version or goes live first.
 */
@TestPropertySource(
    properties = {
      "hotrank.boards[0].name=race-hn",
      "hotrank.boards[0].biz=race",
      "hotrank.boards[0].size=3",
      "hotrank.boards[0].refresh=0 0 0 1 1 *"
    })
class BoardPublisherRaceTest extends ApiTestSupport {

  private static final Instant BEFORE = NOW.minusSeconds(600);

  @Autowired private BoardPublisher publisher;
  @Autowired private BoardRegistry registry;
  @Autowired private BoardSnapshotStore database;
  @Autowired private BoardRedisStore shared;
  @Autowired private LocalBoards local;
  @Autowired private BoardProperties properties;
  @Autowired private HotrankRedisProperties redisProperties;
  @Autowired private MeterRegistry meters;
  @Autowired private ControlledEntries controlled;
  @Autowired private Clock serviceClock;

  @Override
  protected String engine() {
    return "H2";
  }

  /**
   * A Redis store that runs the other side of a race once at a chosen step: just before it hands
   * out the next version, just after, or when the fence is read.
   */
  private final class Racing extends BoardRedisStore {

    private Runnable beforeVersion = () -> {};
    private Runnable afterVersion = () -> {};
    private Runnable onFence = () -> {};

    Racing() {
      super(redis, redisProperties, properties);
    }

    @Override
    public long nextVersion(String board, long floor) {
      Runnable before = beforeVersion;
      Runnable after = afterVersion;
      beforeVersion = () -> {};
      afterVersion = () -> {};
      before.run();
      long version = super.nextVersion(board, floor);
      after.run();
      return version;
    }

    @Override
    public long fence(String board) {
      Runnable step = onFence;
      onFence = () -> {};
      step.run();
      return super.fence(board);
    }
  }

  private BoardPublisher racing(Racing store) {
    return new BoardPublisher(store, database, local, properties, meters, controlled, serviceClock);
  }

  private static List<BoardEntry> entries(long firstId) {
    List<BoardEntry> entries = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      entries.add(
          new BoardEntry(
              i + 1,
              "race",
              firstId + i,
              10 - i,
              "item " + (firstId + i),
              1,
              BEFORE,
              new Item.Counts(0, 0, 0, 0, 0, 0)));
    }
    return entries;
  }

  private long fence(String board) {
    return Math.max(database.fence(board), shared.fence(board));
  }

  private BoardSnapshot live(String board) {
    return BoardSnapshot.parse(shared.live(board).orElseThrow(), 10, "redis");
  }

  private BoardSnapshot stored(String board) {
    return BoardSnapshot.parse(database.find(board).orElseThrow(), 10, "db");
  }

  private static List<Long> ids(BoardSnapshot snapshot) {
    return snapshot.entries().stream().map(BoardEntry::itemId).toList();
  }

  @Test
  void aComputation_whoseVersionARepublishOvertook_publishesAgain_andLands() {
    BoardDefinition board = registry.require("race-hn");
    long fence = fence("race-hn");
    publisher.publish(board, BEFORE, entries(100), fence);

    // The computation takes its version; the re-publish then takes a higher one and goes live
    // first, with the older content.
    Racing store = new Racing();
    store.afterVersion = () -> publisher.republish(board, List.of());
    BoardPublisher computing = racing(store);
    BoardSnapshot served = computing.publish(board, NOW, entries(200), fence);

    assertThat(served.computedAt()).isEqualTo(NOW);
    assertThat(ids(served)).containsExactly(200L, 201L, 202L);
    assertThat(live("race-hn").computedAt()).isEqualTo(NOW);
    assertThat(ids(live("race-hn"))).containsExactly(200L, 201L, 202L);
    assertThat(stored("race-hn").computedAt()).isEqualTo(NOW);
    assertThat(stored("race-hn").version()).isEqualTo(live("race-hn").version());
  }

  @Test
  void aRepublish_whoseBaseAComputationReplaced_rebuildsOnIt_andNeverRollsItBack() {
    BoardDefinition board = registry.require("race-hn");
    long fence = fence("race-hn");
    publisher.publish(board, BEFORE, entries(300), fence);

    // The computation takes its version before the re-publish takes its own, and goes live after
    // the re-publish has read its base (the older snapshot), before the re-publish goes live.
    long[] computation = new long[1];
    Runnable takeVersion = () -> computation[0] = shared.nextVersion("race-hn", 0);
    Runnable goLive =
        () -> {
          BoardSnapshot fresh =
              BoardSnapshot.of("race-hn", computation[0], NOW, entries(400), List.of(), 10);
          assertThat(database.save(fresh, fence)).isEqualTo(BoardSnapshotStore.Saved.STORED);
          assertThat(shared.publish(fresh, fence)).isEqualTo(BoardRedisStore.Outcome.LIVE);
        };
    Racing store = new Racing();
    store.beforeVersion = takeVersion;
    store.onFence = goLive;
    BoardSnapshot served = racing(store).republish(board, List.of()).orElseThrow();

    assertThat(served.version()).isGreaterThan(computation[0]);
    assertThat(served.computedAt()).isEqualTo(NOW);
    assertThat(ids(served)).containsExactly(400L, 401L, 402L);
    assertThat(live("race-hn").version()).isEqualTo(served.version());
    assertThat(ids(live("race-hn"))).containsExactly(400L, 401L, 402L);
    assertThat(stored("race-hn").computedAt()).isEqualTo(NOW);
    assertThat(ids(stored("race-hn"))).containsExactly(400L, 401L, 402L);
  }
}
