/**
 * Caches on the request path, bounded in count: a map emptied when it is full rather than kept in order,
 * since a client that never repeats a request gains nothing from an order kept for it.
 */

/** Sets `key`, emptying the map first when it is full and the key is new. */
export function keepBounded<K, V>(map: Map<K, V>, capacity: number, key: K, value: V): V {
  if (map.size >= capacity && !map.has(key)) map.clear();
  map.set(key, value);
  return value;
}

/** The value kept under `key`, or `make()`'s, kept. */
export function remember<K, V>(map: Map<K, V>, capacity: number, key: K, make: () => V): V {
  return map.has(key) ? (map.get(key) as V) : keepBounded(map, capacity, key, make());
}
