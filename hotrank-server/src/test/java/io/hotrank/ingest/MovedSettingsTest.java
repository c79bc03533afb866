package io.hotrank.ingest;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

/** A setting that moved stops the start, naming its new name, rather than being ignored. */
class MovedSettingsTest {

  @Test
  void theExistenceCacheSettings_movedToItems_andTheOldNamesSayWhere() {
    assertThatThrownBy(
            () ->
                new IngestConfiguration(
                    new MockEnvironment().withProperty("hotrank.ingest.item-cache-ttl", "9s")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "hotrank.ingest.item-cache-ttl was renamed hotrank.items.live.ttl: set that instead");
    assertThatThrownBy(
            () ->
                new IngestConfiguration(
                    new MockEnvironment().withProperty("hotrank.ingest.item-cache-size", "10")))
        .hasMessageContaining("hotrank.items.live.entries");
    assertThatCode(
            () ->
                new IngestConfiguration(
                    new MockEnvironment().withProperty("hotrank.items.live.ttl", "9s")))
        .doesNotThrowAnyException();
  }
}
