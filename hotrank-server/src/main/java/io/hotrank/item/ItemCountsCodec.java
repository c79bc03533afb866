package io.hotrank.item;

import io.hotrank.cache.RedisVersionedTier;
import io.hotrank.core.score.Interactions;

/**
 * An item's counters as Redis keeps them: the six raw numbers, then the six trusted ones, comma
 * separated, in {@link Interactions}' order. Six numbers alone, as written before trusted counters
 * existed, are counters whose every interaction weighed 1.
 */
final class ItemCountsCodec implements RedisVersionedTier.Codec<Counters> {

  @Override
  public String encode(Counters c) {
    return encode(c.raw()) + "," + encode(c.trusted());
  }

  private static String encode(Interactions c) {
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
  public Counters decode(String text) {
    String[] n = text.split(",");
    Interactions raw = decode(n, 0);
    return n.length < 12 ? Counters.allTrusted(raw) : new Counters(raw, decode(n, 6));
  }

  private static Interactions decode(String[] n, int from) {
    return new Interactions(
        Long.parseLong(n[from]),
        Long.parseLong(n[from + 1]),
        Long.parseLong(n[from + 2]),
        Long.parseLong(n[from + 3]),
        Long.parseLong(n[from + 4]),
        Long.parseLong(n[from + 5]));
  }
}
