package io.hotrank.embedded;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The embedded default, under {@code hotrank.embedded.*}. Read from the environment before the
 * application context exists (see {@link EmbeddedDefaults}); declared as a record so that its
 * default is stated once and IDEs complete it.
 *
 * @param redis whether to start the embedded Redis binary when no Redis is configured; {@code
 *     false} leaves Redis unconfigured (Spring Boot's default, localhost:6379)
 */
@ConfigurationProperties("hotrank.embedded")
public record EmbeddedProperties(@DefaultValue("true") boolean redis) {}
