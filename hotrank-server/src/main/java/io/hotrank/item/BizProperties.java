package io.hotrank.item;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The configured bizes, {@code hotrank.bizes}: names items may be stored under besides those the
 * configured boards name ({@code hotrank.boards[i].biz}, always known) and those an admin created.
 * A list binds only from its parent prefix, so this record binds {@code hotrank} and reads nothing
 * but {@code bizes}.
 *
 * @param bizes bizes known without an admin creating them; empty by default, so that the shipped
 *     configuration knows only its boards' {@code article}
 */
@ConfigurationProperties("hotrank")
public record BizProperties(@Nullable List<String> bizes) {

  public BizProperties {
    bizes = bizes == null ? List.of() : List.copyOf(bizes);
  }
}
