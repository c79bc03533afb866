package io.hotrank.board;

import io.hotrank.HotrankException;

/** A board computation was stopped before publishing (shutdown); nothing was published. */
public final class ComputationAbandonedException extends HotrankException {

  public ComputationAbandonedException(String what) {
    super("Computation of '" + what + "' abandoned before publishing");
  }
}
