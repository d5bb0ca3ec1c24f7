/**
 * A bounded memo for a pure function of a string: a storm repeats the same stack lines and the
 * same frame sets thousands of times, and each is worked out once. Two generations approximate
 * least-recently-used at the cost of two map lookups: when the young map is full it becomes the
 * old one, and a hit in the old one is carried back into the young. Memory stays under 2 × size
 * entries whatever the input.
 */
export function recentMemo<T>(compute: (key: string) => T, size: number): (key: string) => T {
  let young = new Map<string, T>();
  let old = new Map<string, T>();
  const remember = (key: string, value: T) => {
    if (young.size >= size) {
      old = young;
      young = new Map();
    }
    young.set(key, value);
  };
  return (key) => {
    const hit = young.get(key);
    if (hit !== undefined || young.has(key)) return hit as T;
    const value = old.has(key) ? (old.get(key) as T) : compute(key);
    remember(key, value);
    return value;
  };
}
