package io.livegate.scan.terragrunt;

import java.util.AbstractMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/** A read-only map whose values are computed on first access: how locals and includes are read. */
final class LazyMap extends AbstractMap<String, Object> {
  private final Set<String> keys;
  private final Function<String, Object> compute;
  private final Map<String, Object> computed = new HashMap<>();

  LazyMap(Set<String> keys, Function<String, Object> compute) {
    this.keys = keys;
    this.compute = compute;
  }

  @Override
  public boolean containsKey(Object key) {
    return keys.contains(key);
  }

  @Override
  public Object get(Object key) {
    if (!keys.contains(key)) {
      return null;
    }
    String name = (String) key;
    if (!computed.containsKey(name)) {
      computed.put(name, compute.apply(name));
    }
    return computed.get(name);
  }

  @Override
  public Set<Entry<String, Object>> entrySet() {
    Set<Entry<String, Object>> entries = new LinkedHashSet<>();
    for (String key : keys) {
      entries.add(new SimpleImmutableEntry<>(key, get(key)));
    }
    return entries;
  }
}
