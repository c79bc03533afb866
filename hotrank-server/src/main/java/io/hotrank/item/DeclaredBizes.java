package io.hotrank.item;

import java.util.Collection;

/**
 * Bizes that another module's configuration names (the boards' {@code hotrank.boards[i].biz}):
 * known like those of {@code hotrank.bizes}, without being listed there. {@link Bizes} asks every
 * bean of this type once, at start.
 */
public interface DeclaredBizes {

  /** The bizes named; each must match {@link ItemService#BIZ}. */
  Collection<String> bizes();
}
