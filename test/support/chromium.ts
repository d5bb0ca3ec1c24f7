import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

// Debian's Chromium, headless, with nothing that reaches the network on its own.
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface TestBrowser {
  context: BrowserContext;
  /** Closes the browser and removes its throw-away profile. */
  close(): Promise<void>;
}

/** Headless Chromium on a fresh profile, for the browser tests of the sandbox page. */
export async function launchChromium(name: string, viewport?: { width: number; height: number }): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), `medic-e2e-${name}-`));
  const context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS, ...(viewport ? { viewport } : {}) });
  return {
    context,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
