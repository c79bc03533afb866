package io.hotrank.ops;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Static export of boards, under {@code hotrank.export.*}.
 *
 * @param dir when set, every new board version is also written to {@code <dir>/boards/<name>.json}
 *     (byte-identical to the default read) and {@code <name>.html}; unset, nothing is exported
 */
@ConfigurationProperties("hotrank.export")
record ExportProperties(@Nullable Path dir) {}
