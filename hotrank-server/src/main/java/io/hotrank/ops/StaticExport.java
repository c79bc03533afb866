package io.hotrank.ops;

import io.hotrank.board.BoardEntry;
import io.hotrank.board.BoardInstalled;
import io.hotrank.board.BoardSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Static export ({@code hotrank.export.dir}): every snapshot this instance installs is also written
 * as {@code <dir>/boards/<name>.json}, byte-identical to the body of {@code GET
 * /api/v1/boards/<name>} with default parameters, and as a small {@code <dir>/boards/<name>.html},
 * so that nginx or a CDN can serve boards with no JVM in the path. Each file is written to a
 * temporary name and renamed over the old one, so a reader sees the old file or the new one, never
 * a torn write. Failures are logged; serving goes on.
 */
@Component
@ConditionalOnProperty("hotrank.export.dir")
class StaticExport {

  private static final Logger log = LoggerFactory.getLogger(StaticExport.class);
  private static final int HTML_ENTRIES = 20;

  private final Path boards;
  private final Map<String, Long> exported = new HashMap<>();

  StaticExport(ExportProperties properties) throws IOException {
    Path dir = properties.dir();
    if (dir == null) {
      throw new IllegalStateException("hotrank.export.dir is required for static export");
    }
    this.boards = dir.resolve("boards").toAbsolutePath();
    Files.createDirectories(boards);
    log.info("Static export of boards to {}", boards);
  }

  /**
   * Writes an installed snapshot. Installs can race (a notice from another instance and this
   * instance's own publish) and their events may arrive out of version order; serialising the
   * writes and never writing an older version than the last written keeps the files on the newest.
   */
  @EventListener
  synchronized void onInstalled(BoardInstalled installed) {
    BoardSnapshot snapshot = installed.snapshot();
    if (exported.getOrDefault(snapshot.board(), 0L) >= snapshot.version()) {
      return;
    }
    try {
      // The default window is what GET /api/v1/boards/{name} serves without parameters.
      writeAtomically(boards.resolve(snapshot.board() + ".json"), snapshot.defaultBody());
      writeAtomically(
          boards.resolve(snapshot.board() + ".html"),
          html(snapshot).getBytes(StandardCharsets.UTF_8));
      exported.put(snapshot.board(), snapshot.version());
    } catch (IOException e) {
      log.warn(
          "Board '{}' v{}: static export failed ({})",
          snapshot.board(),
          snapshot.version(),
          e.toString());
    }
  }

  private static void writeAtomically(Path target, byte[] content) throws IOException {
    Path temp = Files.createTempFile(target.getParent(), "." + target.getFileName(), ".tmp");
    try {
      Files.write(temp, content);
      // Temporary files are private to their owner; the web server serving them usually is not.
      if (Files.getFileStore(temp).supportsFileAttributeView(PosixFileAttributeView.class)) {
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-r--r--"));
      }
      try {
        Files.move(
            temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  private static String html(BoardSnapshot snapshot) {
    StringBuilder page =
        new StringBuilder(4096)
            .append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
            .append("<title>")
            .append(escape(snapshot.board()))
            .append("</title></head><body>\n")
            .append("<h1>")
            .append(escape(snapshot.board()))
            .append("</h1>\n")
            .append("<p>version ")
            .append(snapshot.version())
            .append(", computed ")
            .append(snapshot.computedAt())
            .append(" &middot; <a href=\"")
            .append(escape(snapshot.board()))
            .append(".json\">JSON</a></p>\n<ol>\n");
    snapshot.entries().stream()
        .limit(HTML_ENTRIES)
        .forEach(
            (BoardEntry e) ->
                page.append("<li>")
                    .append(escape(e.title()))
                    .append(" <small>(")
                    .append(String.format(java.util.Locale.ROOT, "%.4f", e.score()))
                    .append(")</small></li>\n"));
    return page.append("</ol>\n</body></html>\n").toString();
  }

  private static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (char c : text.toCharArray()) {
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
