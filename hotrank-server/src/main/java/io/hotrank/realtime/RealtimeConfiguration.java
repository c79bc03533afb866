package io.hotrank.realtime;

import io.hotrank.board.BoardProperties;
import io.hotrank.board.BoardRegistry;
import io.hotrank.board.BoardSink;
import io.hotrank.ingest.FoldHistory;
import io.hotrank.ingest.IngestProperties;
import io.hotrank.item.CounterPages;
import io.hotrank.item.ItemCards;
import io.hotrank.item.ItemWriteListener;
import io.hotrank.redis.HotrankRedisProperties;
import io.hotrank.time.Ticker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The beans of realtime boards: one {@link RealtimeKind} per kind, and what loops over them. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RealtimeProperties.class)
class RealtimeConfiguration {

  @Bean
  RealtimeKeys realtimeKeys(HotrankRedisProperties redis) {
    return new RealtimeKeys(redis.keyPrefix());
  }

  @Bean
  PublishedCards publishedCards(ItemCards items, FoldHistory history, Ticker ticker) {
    return new PublishedCards(items, history, ticker);
  }

  @Bean
  ScoredEntries scoredEntries(PublishedCards cards) {
    return new ScoredEntries(cards);
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
  WindowBoards windowBoards(
      WindowStore store,
      FoldHistory history,
      ScoredEntries entries,
      Clock clock,
      MeterRegistry meters) {
    return new WindowBoards(store, new WindowFolds(store, history, clock, meters), entries);
  }

  @Bean
  WindowFamilies windowFamilies(
      StringRedisTemplate redis,
      RealtimeKeys keys,
      ItemCards items,
      FoldHistory history,
      PublishedCards published,
      BoardSink sink,
      Clock clock,
      MeterRegistry meters) {
    return new WindowFamilies(
        new WindowFamilyStore(redis, keys, items, clock), history, published, sink, clock, meters);
  }

  @Bean
  ScaledWindows scaledWindows(
      StringRedisTemplate redis,
      RealtimeKeys keys,
      ItemCards items,
      FoldHistory history,
      PublishedCards published,
      Clock clock,
      MeterRegistry meters) {
    WindowFamilyStore store = new WindowFamilyStore(redis, keys, items, clock);
    return new ScaledWindows(store, new WindowFolds(store, history, clock, meters), published);
  }

  @Bean
  Leaderboards leaderboards(
      LeaderboardStore store,
      FoldHistory history,
      CounterPages counters,
      ItemCards items,
      ScoredEntries entries) {
    return new Leaderboards(store, history, counters, items, entries);
  }

  @Bean
  LiveBoards liveBoards(
      LiveStore store,
      FoldHistory history,
      CounterPages counters,
      ItemCards items,
      PublishedCards published,
      Clock clock,
      BoardProperties boards,
      MeterRegistry meters) {
    return new LiveBoards(
        store, history, counters, items, published, clock, boards.scanPageSize(), meters);
  }

  @Bean
  LiveFamilyStore liveFamilyStore(StringRedisTemplate redis, RealtimeKeys keys) {
    return new LiveFamilyStore(redis, keys);
  }

  @Bean
  LiveFamilies liveFamilies(
      LiveFamilyStore store,
      FoldHistory history,
      CounterPages counters,
      ItemCards items,
      PublishedCards published,
      BoardSink sink,
      Clock clock,
      BoardProperties boards,
      MeterRegistry meters) {
    return new LiveFamilies(
        store, history, counters, items, published, sink, clock, boards.scanPageSize(), meters);
  }

  @Bean
  ScaledBoards scaledBoards(
      LiveFamilies sets,
      LiveFamilyStore store,
      CounterPages counters,
      PublishedCards published,
      Clock clock,
      BoardProperties boards) {
    return new ScaledBoards(sets, store, counters, published, clock, boards.scanPageSize());
  }

  /** Every kind's boards, checked against the event log's retention. */
  @Bean
  RealtimeBoards realtimeBoards(
      BoardRegistry registry, List<RealtimeKind> kinds, IngestProperties ingest) {
    RealtimeBoards boards = new RealtimeBoards(registry, kinds);
    boards.all().forEach(k -> k.kind().checkRetention(k.board(), ingest.retention()));
    return boards;
  }

  /**
   * Each realtime board of its biz hears of a created, edited or deleted item (live boards admit a
   * created one at once; live families move an edited one between segments).
   */
  @Bean
  ItemWriteListener realtimeItemWrites(RealtimeBoards boards) {
    List<RealtimeBoards.Kept> all = boards.all();
    return new ItemWriteListener() {
      @Override
      public void created(String biz, long itemId, Instant createdAt) {
        each(biz, kept -> kept.kind().created(kept.board(), itemId, createdAt.toEpochMilli()));
      }

      @Override
      public void edited(String biz, long itemId) {
        each(biz, kept -> kept.kind().edited(kept.board(), itemId));
      }

      @Override
      public void deleted(String biz, long itemId, Instant createdAt) {
        each(biz, kept -> kept.kind().deleted(kept.board(), itemId, createdAt.toEpochMilli()));
      }

      private void each(String biz, Consumer<RealtimeBoards.Kept> call) {
        for (RealtimeBoards.Kept kept : all) {
          if (kept.board().biz().equals(biz)) {
            call.accept(kept);
          }
        }
      }
    };
  }

  @Bean
  AppliedFolds appliedFolds(Ticker ticker) {
    return new AppliedFolds(ticker);
  }

  @Bean
  RealtimeFolds realtimeFolds(
      RealtimeBoards boards, AppliedFolds appliedFolds, PublishedCards cards) {
    return new RealtimeFolds(boards, appliedFolds, cards);
  }

  @Bean
  RealtimeJobs realtimeJobs(
      RealtimeBoards boards,
      BoardSink publisher,
      Clock clock,
      Ticker ticker,
      RealtimeProperties properties,
      AppliedFolds appliedFolds) {
    return new RealtimeJobs(boards, publisher, clock, ticker, properties, appliedFolds);
  }
}
