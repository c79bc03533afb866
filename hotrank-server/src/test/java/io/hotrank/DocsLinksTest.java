package io.hotrank;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in every Markdown file of the repository leads somewhere: the linked file or
 * directory exists (relative to the linking file), and a {@code #anchor} names a heading of the
 * linked Markdown file (or of the linking file, for a bare {@code #anchor}). External links ({@code
 * http:}, {@code https:}, {@code mailto:}) are not followed. Links inside fenced code blocks and
 * code spans are not links.
 *
 * <p>Anchors are the slugs GitHub gives headings: the heading's text (link targets, code markers
 * and emphasis left out) in lower case, every character that is not a letter, a digit, a space, a
 * hyphen or an underscore removed, each space turned into a hyphen; a slug already taken gets
 * {@code -1}, {@code -2}, ... in order. An {@code id} or {@code name} attribute of inline HTML is
 * an anchor too. A link into a file that is not Markdown may carry only a line anchor ({@code
 * #L12}, {@code #L12-L20}).
 */
class DocsLinksTest {

  /** Directories never walked: version control, build output, installed packages. */
  private static final Set<String> SKIPPED = Set.of(".git", "target", "node_modules");

  /** {@code [text](target)} or {@code ![alt](target)}, with an optional title after the target. */
  private static final Pattern INLINE_LINK =
      Pattern.compile(
          "!?\\[((?:[^\\[\\]]|\\[[^\\]]*\\])*)\\]\\(\\s*(<[^>]*>|[^)\\s]+)(?:\\s+(?:\"[^\"]*\"|'[^']*'))?\\s*\\)");

  /** A reference definition, {@code [name]: target}. */
  private static final Pattern REFERENCE =
      Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*(<[^>]*>|\\S+)", Pattern.MULTILINE);

  private static final Pattern ATX_HEADING = Pattern.compile("^ {0,3}(#{1,6})(?:\\s+(.*?))?\\s*$");
  private static final Pattern SETEXT_UNDERLINE = Pattern.compile("^ {0,3}(=+|-+)\\s*$");
  private static final Pattern FENCE = Pattern.compile("^ {0,3}(`{3,}|~{3,})");
  private static final Pattern CODE_SPAN =
      Pattern.compile("(`+)(?!`)(.+?)(?<!`)\\1(?!`)", Pattern.DOTALL);
  private static final Pattern HTML_ANCHOR =
      Pattern.compile("<[a-zA-Z][^>]*\\s(?:id|name)\\s*=\\s*[\"']([^\"']+)[\"']");
  private static final Pattern EXTERNAL = Pattern.compile("^(?i)(https?|mailto):.*");
  private static final Pattern LINE_ANCHOR = Pattern.compile("L\\d+(-L\\d+)?");

  private final Map<Path, Set<String>> anchors = new HashMap<>();

  @Test
  void everyRelativeLinkInEveryMarkdownFile_leadsToAFileAndAHeading() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    assertThat(root.resolve("pom.xml")).as("the repository root").isRegularFile();

    List<Path> markdown = markdownFiles(root);
    assertThat(markdown)
        .as("Markdown files found under " + root)
        .contains(root.resolve("README.md"), root.resolve("docs/configuration.md"));

    List<String> broken = new ArrayList<>();
    int links = 0;
    for (Path file : markdown) {
      for (Link link : links(file)) {
        links++;
        String problem = check(file, link.target());
        if (problem != null) {
          broken.add(
              root.relativize(file) + ":" + link.line() + ": (" + link.target() + ") " + problem);
        }
      }
    }
    assertThat(links).as("relative links checked").isPositive();
    assertThat(broken)
        .as("broken relative links or anchors in Markdown files (file:line: (target) why)")
        .isEmpty();
  }

  @Test
  void slug_followsGitHubsRules() {
    Set<String> seen = new HashSet<>();
    assertThat(slug("Set-up: two commands", seen)).isEqualTo("set-up-two-commands");
    assertThat(slug("Health probes: which one a load balancer should use", seen))
        .isEqualTo("health-probes-which-one-a-load-balancer-should-use");
    assertThat(slug("How the following feed is kept: hybrid fan-out", seen))
        .isEqualTo("how-the-following-feed-is-kept-hybrid-fan-out");
    assertThat(slug("HTTP API (v1)", seen)).isEqualTo("http-api-v1");
    assertThat(slug("The `hotrank.boards[i]` *settings*", seen))
        .isEqualTo("the-hotrankboardsi-settings");
    assertThat(slug("See [the API](api.md#x) and snake_case", seen))
        .isEqualTo("see-the-api-and-snake_case");
    assertThat(slug("Metrics", seen)).isEqualTo("metrics");
    assertThat(slug("Metrics", seen)).isEqualTo("metrics-1");
    assertThat(slug("Metrics", seen)).isEqualTo("metrics-2");
  }

  /** Why a link target leads nowhere, or null when it leads somewhere. */
  private String check(Path from, String rawTarget) {
    String target =
        rawTarget.startsWith("<") ? rawTarget.substring(1, rawTarget.length() - 1) : rawTarget;
    if (EXTERNAL.matcher(target).matches()) {
      return null;
    }
    int hash = target.indexOf('#');
    String pathPart = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    int query = pathPart.indexOf('?');
    if (query >= 0) {
      pathPart = pathPart.substring(0, query);
    }
    Path linked;
    if (pathPart.isEmpty()) {
      linked = from;
    } else {
      if (pathPart.startsWith("/")) {
        return "is absolute; link relative to the file";
      }
      linked =
          from.getParent().resolve(URLDecoder.decode(pathPart, StandardCharsets.UTF_8)).normalize();
      if (!Files.exists(linked)) {
        return "no such file";
      }
    }
    if (anchor == null) {
      return null;
    }
    String decoded = URLDecoder.decode(anchor, StandardCharsets.UTF_8);
    if (Files.isDirectory(linked)) {
      return "an anchor into a directory";
    }
    if (!isMarkdown(linked)) {
      return LINE_ANCHOR.matcher(decoded).matches()
          ? null
          : "an anchor into a file that is not Markdown (only #L<line> is allowed)";
    }
    Set<String> known = anchors.computeIfAbsent(linked, DocsLinksTest::anchorsOf);
    return known.contains(decoded)
        ? null
        : "no heading with the anchor '" + decoded + "' in " + linked.getFileName();
  }

  private static List<Path> markdownFiles(Path root) throws IOException {
    List<Path> files = new ArrayList<>();
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            return !dir.equals(root) && SKIPPED.contains(dir.getFileName().toString())
                ? FileVisitResult.SKIP_SUBTREE
                : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (attrs.isRegularFile() && isMarkdown(file)) {
              files.add(file);
            }
            return FileVisitResult.CONTINUE;
          }
        });
    files.sort(null);
    return files;
  }

  private static boolean isMarkdown(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    return name.endsWith(".md") || name.endsWith(".markdown");
  }

  /** A link target and the line it is on. */
  private record Link(int line, String target) {}

  /**
   * The link targets of a file, outside code blocks and code spans. Links are looked for in each
   * paragraph as a whole, since a link's text may wrap onto the next line.
   */
  private static List<Link> links(Path file) {
    List<Link> links = new ArrayList<>();
    List<String> lines = prose(file);
    int start = 0;
    while (start < lines.size()) {
      if (lines.get(start) == null || lines.get(start).isBlank()) {
        start++;
        continue;
      }
      int end = start;
      StringBuilder paragraph = new StringBuilder();
      while (end < lines.size() && lines.get(end) != null && !lines.get(end).isBlank()) {
        paragraph.append(lines.get(end)).append('\n');
        end++;
      }
      String text = withoutCodeSpans(paragraph.toString());
      Matcher inline = INLINE_LINK.matcher(text);
      while (inline.find()) {
        links.add(new Link(start + 1 + lineOf(text, inline.start(2)), inline.group(2)));
      }
      Matcher reference = REFERENCE.matcher(text);
      while (reference.find()) {
        links.add(new Link(start + 1 + lineOf(text, reference.start(1)), reference.group(1)));
      }
      start = end;
    }
    return links;
  }

  /** The text with each code span replaced by a word, keeping its line breaks. */
  private static String withoutCodeSpans(String text) {
    Matcher span = CODE_SPAN.matcher(text);
    StringBuilder out = new StringBuilder();
    while (span.find()) {
      String breaks = span.group().replaceAll("[^\n]", "");
      span.appendReplacement(out, "code" + breaks);
    }
    span.appendTail(out);
    return out.toString();
  }

  /** The 0-based line of an offset in a text. */
  private static int lineOf(String text, int offset) {
    return (int) text.substring(0, offset).chars().filter(c -> c == '\n').count();
  }

  /** The anchors a Markdown file defines: its headings' slugs and inline HTML ids and names. */
  private static Set<String> anchorsOf(Path file) {
    Set<String> slugs = new HashSet<>();
    List<String> lines = prose(file);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line == null) {
        continue;
      }
      Matcher html = HTML_ANCHOR.matcher(line);
      while (html.find()) {
        slugs.add(html.group(1));
      }
      Matcher atx = ATX_HEADING.matcher(line);
      if (atx.matches()) {
        String heading = atx.group(2) == null ? "" : atx.group(2).replaceAll("\\s+#+$", "");
        slug(heading, slugs);
        continue;
      }
      String previous = i == 0 ? null : lines.get(i - 1);
      if (SETEXT_UNDERLINE.matcher(line).matches()
          && previous != null
          && !previous.isBlank()
          && !previous.stripLeading().startsWith("|")
          && !previous.stripLeading().startsWith("- ")
          && !ATX_HEADING.matcher(previous).matches()) {
        slug(previous.strip(), slugs);
      }
    }
    return slugs;
  }

  /**
   * Adds a heading's GitHub slug to the slugs taken so far, with a numeric suffix if it is taken.
   *
   * @return the slug added
   */
  static String slug(String heading, Set<String> taken) {
    String text =
        heading
            .replaceAll("!?\\[((?:[^\\[\\]]|\\[[^\\]]*\\])*)\\]\\([^)]*\\)", "$1")
            .replaceAll("<[^>]+>", "")
            .replace("`", "")
            .replace("*", "")
            .replaceAll("(?<![\\p{L}\\p{N}])_+|_+(?![\\p{L}\\p{N}])", "");
    String base =
        text.strip()
            .toLowerCase(Locale.ROOT)
            .replaceAll("[^\\p{L}\\p{M}\\p{N}_\\- ]", "")
            .replace(' ', '-');
    String slug = base;
    for (int n = 1; taken.contains(slug); n++) {
      slug = base + "-" + n;
    }
    taken.add(slug);
    return slug;
  }

  /** The lines of a file, with the lines of fenced code blocks (fences included) as null. */
  private static List<String> prose(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<String> prose = new ArrayList<>(lines.size());
    String fence = null;
    for (String line : lines) {
      Matcher open = FENCE.matcher(line);
      if (fence == null && open.find()) {
        fence = open.group(1);
        prose.add(null);
      } else if (fence != null) {
        String stripped = line.strip();
        char mark = fence.charAt(0);
        if (stripped.startsWith(fence) && stripped.chars().allMatch(c -> c == mark)) {
          fence = null;
        }
        prose.add(null);
      } else {
        prose.add(line);
      }
    }
    return prose;
  }
}
