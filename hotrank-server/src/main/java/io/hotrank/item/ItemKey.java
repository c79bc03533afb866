package io.hotrank.item;

/** An item of a biz: the key of the item caches. */
public record ItemKey(String biz, long id) {
  @Override
  public String toString() {
    return biz + "/" + id;
  }
}
