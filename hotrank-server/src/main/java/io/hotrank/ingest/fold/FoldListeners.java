package io.hotrank.ingest.fold;

import io.hotrank.ingest.Fold;
import io.hotrank.ingest.FoldListener;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells every {@link FoldListener} (the Redis side) of a committed fold, or that the folder is
 * idle, in their order; a listener that fails is logged and the others are told regardless (each
 * catches up by itself later). Called on the folding thread, on a manual fold's, and on a flag's
 * (its retraction is a fold): listeners apply folds by number, whatever thread tells them.
 */
public final class FoldListeners {

  private static final Logger log = LoggerFactory.getLogger(FoldListeners.class);

  private final List<FoldListener> listeners;

  FoldListeners(List<FoldListener> listeners) {
    this.listeners = List.copyOf(listeners);
  }

  /** A fold committed. */
  public void folded(Fold fold) {
    for (FoldListener listener : listeners) {
      try {
        listener.folded(fold);
      } catch (RuntimeException e) {
        log.warn("{} failed on fold {}: {}", listener, fold.foldNo(), e.toString());
      }
    }
  }

  /** Nothing is waiting; {@code lastFoldNo} is the last committed fold. */
  public void idle(long lastFoldNo) {
    for (FoldListener listener : listeners) {
      try {
        listener.idle(lastFoldNo);
      } catch (RuntimeException e) {
        log.warn("{} failed to catch up to fold {}: {}", listener, lastFoldNo, e.toString());
      }
    }
  }
}
