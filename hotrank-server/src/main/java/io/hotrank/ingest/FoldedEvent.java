package io.hotrank.ingest;

/**
 * An event as a fold applied it: what it did to its item's raw and trusted counters, which is what
 * a window board adds up (by raw interactions or by trusted weight).
 *
 * @param event the event; a flag's retraction hands out events that are no row of a source (seq 0,
 *     the undo of the like or collect it takes back, at the time that action was folded)
 * @param raw whether it moved its raw counter by its type's step; false when it moved the trusted
 *     counter only: a retraction, or a user's unlike whose raw counter anonymous unlikes had taken
 *     to 0 already
 * @param trusted what it added to its item's trusted counter, in thousandths of an interaction
 *     ({@link io.hotrank.item.Counters#TRUSTED_UNIT}): negative when it took weight back, 0 when
 *     its actor weighs nothing or was past its cap
 */
public record FoldedEvent(LoggedEvent event, boolean raw, long trusted) {

  /** What an event weighed before trust existed: its step, at full weight, on both counters. */
  public static FoldedEvent atFullWeight(LoggedEvent event) {
    return new FoldedEvent(
        event, true, event.type().step() * io.hotrank.item.Counters.TRUSTED_UNIT);
  }
}
