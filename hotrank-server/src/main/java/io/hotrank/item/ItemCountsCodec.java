package io.hotrank.item;

import io.hotrank.cache.RedisVersionedTier;
import io.hotrank.core.score.Interactions;

/**
 * An item's counters as Redis keeps them: six comma-separated numbers, as in {@link Interactions}.
 */
final class ItemCountsCodec implements RedisVersionedTier.Codec<Interactions> {

  @Override
  public String encode(Interactions c) {
    return c.like()
        + ","
        + c.view()
        + ","
        + c.comment()
        + ","
        + c.share()
        + ","
        + c.collect()
        + ","
        + c.dislike();
  }

  @Override
  public Interactions decode(String text) {
    String[] n = text.split(",");
    return new Interactions(
        Long.parseLong(n[0]),
        Long.parseLong(n[1]),
        Long.parseLong(n[2]),
        Long.parseLong(n[3]),
        Long.parseLong(n[4]),
        Long.parseLong(n[5]));
  }
}
