import { afterEach } from 'vitest';

/**
 * Closes what a test opened once the test ends, newest first, whether it passed or not:
 * `const opened = closeAfterEach(); const world = opened(await createWorld())`.
 */
export function closeAfterEach(): <T extends { close(): Promise<unknown> }>(resource: T) => T {
  let open: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    const closing = open.reverse();
    open = [];
    for (const resource of closing) await resource.close();
  });
  return (resource) => {
    open.push(resource);
    return resource;
  };
}
