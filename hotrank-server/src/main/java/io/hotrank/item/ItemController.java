package io.hotrank.item;

import java.net.URI;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The item endpoints of the v1 API. */
@RestController
@RequestMapping("/api/v1/items")
class ItemController {

  private final ItemService items;

  ItemController(ItemService items) {
    this.items = items;
  }

  @PostMapping
  ResponseEntity<Item> create(@RequestBody ItemRequest request) {
    Item item = items.create(request);
    return ResponseEntity.created(URI.create("/api/v1/items/" + item.biz() + "/" + item.id()))
        .body(item);
  }

  @GetMapping("/{biz}/{id}")
  Item get(@PathVariable String biz, @PathVariable long id) {
    return items.get(biz, id);
  }

  @PutMapping("/{biz}/{id}")
  Item update(@PathVariable String biz, @PathVariable long id, @RequestBody ItemRequest request) {
    return items.update(biz, id, request);
  }

  @DeleteMapping("/{biz}/{id}")
  ResponseEntity<Void> delete(@PathVariable String biz, @PathVariable long id) {
    items.delete(biz, id);
    return ResponseEntity.noContent().build();
  }
}
