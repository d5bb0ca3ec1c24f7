/**
 * A bounded memo for pure results keyed by a string: a storm repeats the same traces thousands
 * of times, and each is worked out once. Two generations approximate least-recently-used at the
 * cost of two map lookups: when the young map is full it becomes the old one, and a hit in the
 * old one is carried back into the young. Memory stays under 2 × size entries whatever the input.
 */
export function recentMemo<T>(size: number): (key: string, compute: () => T) => T {
  let young = new Map<string, T>();
  let old = new Map<string, T>();
  return (key, compute) => {
    if (young.has(key)) return young.get(key) as T;
    const value = old.has(key) ? (old.get(key) as T) : compute();
    if (young.size >= size) {
      old = young;
      young = new Map();
    }
    young.set(key, value);
    return value;
  };
}
