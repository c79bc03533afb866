package io.hotrank.cache;

/** The tier that answered a read of a {@link TieredCache}; sent as {@code X-Hotrank-Source}. */
public enum ReadSource {
  LOCAL("local"),
  REDIS("redis"),
  DB("db");

  private final String header;

  ReadSource(String header) {
    this.header = header;
  }

  /** The name of the tier in the {@code X-Hotrank-Source} header and the metrics' tag. */
  public String header() {
    return header;
  }
}
