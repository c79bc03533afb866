package io.hotrank.core.cursor;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encodes a cursor, a kind and a few string fields (say {@code latest}, its biz, a timestamp and an
 * id), as {@code base64url(payload) "." base64url(tag)}, the tag being the first 16 bytes of
 * HMAC-SHA256 over the payload under a secret key. {@link #decode} gives the fields back only for a
 * cursor this key signed for the same kind: a changed byte, a cursor of another feed or another
 * key's cursor is refused, so the fields can be trusted as the server wrote them.
 *
 * <p>The payload is readable by whoever holds the cursor (it is signed, not encrypted); put nothing
 * secret in it. Thread-safe.
 */
public final class CursorCodec {

  private static final int TAG_BYTES = 16;
  private static final int VERSION = 1;
  private static final int MAX_CURSOR_CHARS = 1024;

  private final SecretKeySpec key;

  /**
   * @param secret the signing key, at least 16 bytes; every instance that reads another's cursors
   *     needs the same one
   */
  public CursorCodec(byte[] secret) {
    if (secret.length < 16) {
      throw new IllegalArgumentException("a cursor key needs at least 16 bytes");
    }
    this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
  }

  /** The cursor of {@code kind} carrying {@code fields}. */
  public String encode(String kind, List<String> fields) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeByte(VERSION);
      out.writeUTF(kind);
      out.writeByte(fields.size());
      for (String field : fields) {
        out.writeUTF(field);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    byte[] payload = bytes.toByteArray();
    Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
    return base64.encodeToString(payload) + "." + base64.encodeToString(tag(payload));
  }

  /**
   * The fields of a cursor of {@code kind} this key signed, or empty if {@code cursor} is not one
   * (malformed, altered, signed by another key, or of another kind).
   */
  public Optional<List<String>> decode(String kind, String cursor) {
    int dot = cursor.indexOf('.');
    if (cursor.length() > MAX_CURSOR_CHARS || dot < 0 || dot != cursor.lastIndexOf('.')) {
      return Optional.empty();
    }
    byte[] payload;
    byte[] tag;
    try {
      payload = Base64.getUrlDecoder().decode(cursor.substring(0, dot));
      tag = Base64.getUrlDecoder().decode(cursor.substring(dot + 1));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    // The decoder ignores the unused low bits of a last character: accept only the one spelling
    // encode gives, so that every changed character is refused.
    Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
    if (!cursor.equals(base64.encodeToString(payload) + "." + base64.encodeToString(tag))) {
      return Optional.empty();
    }
    // Constant time: how much of a forged tag matched must not show in the answer's timing.
    if (!MessageDigest.isEqual(tag, tag(payload))) {
      return Optional.empty();
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload))) {
      if (in.readUnsignedByte() != VERSION || !in.readUTF().equals(kind)) {
        return Optional.empty();
      }
      int n = in.readUnsignedByte();
      List<String> fields = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        fields.add(in.readUTF());
      }
      return in.available() == 0 ? Optional.of(List.copyOf(fields)) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private byte[] tag(byte[] payload) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return Arrays.copyOf(mac.doFinal(payload), TAG_BYTES);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every Java platform has HmacSHA256", e);
    }
  }
}
