package io.hotrank.core.score;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The parts of one score: the formula written out, the value of each of its terms, and the score
 * they give. Evaluating the formula with the terms' values gives {@link #score()} (to the rounding
 * of the last bits), so a reader can check how an item's score came about.
 *
 * @param formula the formula over the terms' symbols, for example {@code (P - 1) / (T + 2)^G}
 * @param terms every symbol of the formula with its value, in the order the formula names them
 * @param score the formula's value
 */
public record Explanation(String formula, List<Term> terms, double score) {

  /**
   * One term of a formula.
   *
   * @param symbol as the formula names it
   * @param meaning what it stands for, in words
   * @param value its value for this item
   */
  public record Term(String symbol, String meaning, double value) {

    /** Builds a term. */
    public Term {
      Objects.requireNonNull(symbol, "symbol");
      Objects.requireNonNull(meaning, "meaning");
    }
  }

  /** Builds an explanation. */
  public Explanation {
    Objects.requireNonNull(formula, "formula");
    terms = List.copyOf(terms);
  }

  /** The points term P of a formula over weighted interactions. */
  static Term points(Weights weights, Interactions counts) {
    return new Term("P", "points: the weighted interactions", weights.points(counts));
  }

  /** The age term T, in hours, of a formula that decays with age. */
  static Term age(Instant createdAt, Instant now) {
    return new Term(
        "T", "age in hours (0 for an item from the future)", Age.between(createdAt, now).hours());
  }

  /**
   * The value of the term named {@code symbol}.
   *
   * @throws IllegalArgumentException if the formula has no such term
   */
  public double value(String symbol) {
    for (Term term : terms) {
      if (term.symbol().equals(symbol)) {
        return term.value();
      }
    }
    throw new IllegalArgumentException("no term " + symbol + " in " + formula);
  }
}
