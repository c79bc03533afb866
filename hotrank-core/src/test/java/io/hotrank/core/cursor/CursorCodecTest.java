package io.hotrank.core.cursor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class CursorCodecTest {

  private static final byte[] KEY =
      "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
  private final CursorCodec codec = new CursorCodec(KEY);

  @Test
  void aCursor_decodesToItsFields_underItsKind() {
    List<String> fields = List.of("article", "1764560000000", "42", "tag|with.odd=chars", "");
    String cursor = codec.encode("latest", fields);
    assertThat(cursor).matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+");
    assertThat(codec.decode("latest", cursor)).contains(fields);
    assertThat(new CursorCodec(KEY).decode("latest", cursor)).contains(fields);
    assertThat(codec.decode("tag", cursor)).as("another feed's cursor").isEmpty();
  }

  @Test
  void everySingleChangedCharacter_isRefused() {
    String cursor = codec.encode("latest", List.of("article", "1764560000000", "42"));
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    for (int i = 0; i < cursor.length(); i++) {
      if (cursor.charAt(i) == '.') {
        continue;
      }
      for (char c : alphabet.toCharArray()) {
        if (c == cursor.charAt(i)) {
          continue;
        }
        String changed = cursor.substring(0, i) + c + cursor.substring(i + 1);
        // Even where only unused low bits of a last character differ (the same bytes).
        assertThat(codec.decode("latest", changed)).as(changed).isEmpty();
      }
    }
  }

  @Test
  void forgedAndMalformedCursors_areRefused() {
    String cursor = codec.encode("latest", List.of("article", "1", "2"));
    String payload = cursor.substring(0, cursor.indexOf('.'));
    String otherKeys =
        new CursorCodec("fedcba9876543210fedcba9876543210".getBytes())
            .encode("latest", List.of("article", "1", "2"));
    assertThat(codec.decode("latest", otherKeys)).isEmpty();
    assertThat(codec.decode("latest", payload)).isEmpty();
    assertThat(codec.decode("latest", payload + ".")).isEmpty();
    assertThat(codec.decode("latest", "")).isEmpty();
    assertThat(codec.decode("latest", "!!!.???")).isEmpty();
    assertThat(codec.decode("latest", cursor + "." + cursor)).isEmpty();
    assertThat(codec.decode("latest", "a".repeat(5000) + ".b")).isEmpty();
  }

  @Test
  void aShortKey_isRefused() {
    assertThatThrownBy(() -> new CursorCodec(new byte[8]))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
