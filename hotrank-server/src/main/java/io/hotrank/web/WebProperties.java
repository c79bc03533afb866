package io.hotrank.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Limits of the servlet port's requests, under {@code hotrank.web.*}.
 *
 * @param maxBodySize the largest request body accepted, checked before anything reads it: a larger
 *     declared {@code Content-Length} answers 413 at once, and a chunked body is cut off with 413
 *     once it grows past it. The largest legal event batch, pretty-printed, is well under the 1MB
 *     default.
 */
@ConfigurationProperties("hotrank.web")
record WebProperties(@DefaultValue("1MB") DataSize maxBodySize) {

  WebProperties {
    if (maxBodySize.toBytes() < 1) {
      throw new IllegalArgumentException(
          "hotrank.web.max-body-size=" + maxBodySize + " must be at least 1B");
    }
  }
}
