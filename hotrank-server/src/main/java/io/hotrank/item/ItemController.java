package io.hotrank.item;

import io.hotrank.problem.Violations;
import java.net.URI;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The item endpoints of the v1 API. */
@RestController
@RequestMapping("/api/v1/items")
class ItemController {

  /** Which tier answered a read: {@code local}, {@code redis} or {@code db} (the slowest part). */
  static final String SOURCE_HEADER = "X-Hotrank-Source";

  private final ItemService items;
  private final ItemReads reads;
  private final Bizes bizes;

  ItemController(ItemService items, ItemReads reads, Bizes bizes) {
    this.items = items;
    this.reads = reads;
    this.bizes = bizes;
  }

  /** A batch read's body. */
  record BatchBody(List<Item> items, List<Long> missing) {}

  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "201",
      description = "The item, created",
      useReturnTypeSchema = true)
  @PostMapping
  ResponseEntity<Item> create(@RequestBody ItemRequest request) {
    Item item = items.create(request);
    return ResponseEntity.created(URI.create("/api/v1/items/" + item.biz() + "/" + item.id()))
        .body(item);
  }

  @GetMapping("/{biz}/{id}")
  ResponseEntity<Item> get(@PathVariable String biz, @PathVariable long id) {
    ItemReads.Found found = reads.get(biz, id);
    return ResponseEntity.ok().header(SOURCE_HEADER, found.source().header()).body(found.item());
  }

  @GetMapping("/{biz}")
  ResponseEntity<BatchBody> getAll(
      @PathVariable String biz, @RequestParam(required = false) @Nullable String ids) {
    List<Long> asked = parseIds(biz, ids);
    bizes.requireReadable(biz, "biz");
    ItemReads.Batch batch = reads.getAll(biz, asked);
    return ResponseEntity.ok()
        .header(SOURCE_HEADER, batch.source().header())
        .body(new BatchBody(batch.items(), batch.missing()));
  }

  /**
   * The ids of a batch read: 1 to {@value ItemReads#MAX_BATCH} item ids (1 to {@link
   * ItemService#MAX_ID}), comma-separated.
   */
  private static List<Long> parseIds(String biz, @Nullable String ids) {
    Violations violations = new Violations();
    ItemService.validateBiz(biz, "biz", violations);
    Set<Long> parsed = new LinkedHashSet<>();
    if (violations.check(ids != null && !ids.isBlank(), "ids", "is required: ?ids=1,2,3")) {
      String[] parts = ids.split(",", -1);
      if (parts.length > ItemReads.MAX_BATCH) {
        violations.add("ids", "at most " + ItemReads.MAX_BATCH + " ids, got " + parts.length);
        parts = new String[0];
      }
      for (String part : parts) {
        try {
          long id = Long.parseLong(part.strip());
          if (id < 1 || id > ItemService.MAX_ID) {
            violations.add(
                "ids",
                "must be positive integers at most " + ItemService.MAX_ID + ", got '" + part + "'");
            break;
          }
          parsed.add(id);
        } catch (NumberFormatException e) {
          violations.add("ids", "must be positive integers separated by ',', got '" + part + "'");
          break;
        }
      }
    }
    violations.throwIfAny();
    return List.copyOf(parsed);
  }

  @PutMapping("/{biz}/{id}")
  Item update(@PathVariable String biz, @PathVariable long id, @RequestBody ItemRequest request) {
    return items.update(biz, id, request);
  }

  @io.swagger.v3.oas.annotations.responses.ApiResponse(
      responseCode = "204",
      description = "Deleted")
  @DeleteMapping("/{biz}/{id}")
  ResponseEntity<Void> delete(@PathVariable String biz, @PathVariable long id) {
    items.delete(biz, id);
    return ResponseEntity.noContent().build();
  }
}
