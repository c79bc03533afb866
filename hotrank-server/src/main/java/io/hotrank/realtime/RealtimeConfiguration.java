package io.hotrank.realtime;

import io.hotrank.board.BoardDefinition;
import io.hotrank.board.BoardProperties;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSink;
import io.hotrank.board.BoardType;
import io.hotrank.ingest.FoldHistory;
import io.hotrank.ingest.IngestProperties;
import io.hotrank.item.CounterStore;
import io.hotrank.item.ItemCreationListener;
import io.hotrank.redis.HotrankRedisProperties;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The beans of realtime boards. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RealtimeProperties.class)
class RealtimeConfiguration {

  @Bean
  RealtimeKeys realtimeKeys(HotrankRedisProperties redis) {
    return new RealtimeKeys(redis.keyPrefix());
  }

  @Bean
  WindowStore windowStore(StringRedisTemplate redis, RealtimeKeys keys) {
    return new WindowStore(redis, keys);
  }

  @Bean
  LeaderboardStore leaderboardStore(StringRedisTemplate redis, RealtimeKeys keys) {
    return new LeaderboardStore(redis, keys);
  }

  @Bean
  LiveStore liveStore(StringRedisTemplate redis, RealtimeKeys keys) {
    return new LiveStore(redis, keys);
  }

  @Bean
  LiveBoards liveBoards(
      LiveStore store,
      FoldHistory history,
      CounterStore counters,
      Clock clock,
      BoardProperties boards,
      MeterRegistry meters) {
    return new LiveBoards(store, history, counters, clock, boards.scanPageSize(), meters);
  }

  /** Live boards admit a created item at once: no fold will name it before its first event. */
  @Bean
  ItemCreationListener liveBoardAdmissions(BoardRegistry registry, LiveBoards live) {
    List<BoardDefinition> boards =
        registry.all().stream().filter(b -> b.type() == BoardType.LIVE).toList();
    return (biz, itemId, createdAt) -> live.created(boards, biz, itemId, createdAt.toEpochMilli());
  }

  @Bean
  AppliedFolds appliedFolds(Ticker ticker) {
    return new AppliedFolds(ticker);
  }

  @Bean
  RealtimeFolds realtimeFolds(
      BoardRegistry registry,
      WindowStore windows,
      LeaderboardStore leaderboards,
      FoldHistory history,
      CounterStore counters,
      Clock clock,
      IngestProperties ingest,
      AppliedFolds appliedFolds,
      LiveBoards liveBoards) {
    checkRetention(realtime(registry), ingest.retention());
    return new RealtimeFolds(
        realtime(registry),
        windows,
        leaderboards,
        history,
        counters,
        clock,
        appliedFolds,
        liveBoards);
  }

  @Bean
  RealtimeJobs realtimeJobs(
      BoardRegistry registry,
      WindowStore windows,
      LeaderboardStore leaderboards,
      CounterStore counters,
      BoardSink publisher,
      Clock clock,
      Ticker ticker,
      RealtimeProperties properties,
      MeterRegistry meters,
      AppliedFolds appliedFolds,
      LiveBoards liveBoards) {
    return new RealtimeJobs(
        realtime(registry),
        windows,
        leaderboards,
        counters,
        publisher,
        clock,
        ticker,
        properties,
        meters,
        appliedFolds,
        liveBoards);
  }

  private static List<BoardDefinition> realtime(BoardRegistry registry) {
    return registry.all().stream().filter(BoardDefinition::realtime).toList();
  }

  /**
   * A window board whose Redis data is lost is replayed from the event log: the log must keep its
   * whole window (plus a bucket, plus the 5 minutes an event may lie ahead).
   */
  static void checkRetention(List<BoardDefinition> boards, Duration retention) {
    for (BoardDefinition board : boards) {
      if (board.type() == BoardType.WINDOW
          && board.window().plus(board.bucket()).plusMinutes(5).compareTo(retention) > 0) {
        throw new IllegalStateException(
            "Window board '"
                + board.name()
                + "' spans "
                + board.window()
                + " but hotrank.ingest.retention="
                + retention
                + " keeps less of the event log than the window, a bucket and 5 minutes: it"
                + " could not be rebuilt after Redis loses its data; raise the retention");
      }
    }
  }
}
