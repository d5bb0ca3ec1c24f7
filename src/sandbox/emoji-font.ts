import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';

/**
 * The sandbox ships its emoji font (Noto Color Emoji, from @fontsource/noto-color-emoji): a
 * machine without an emoji font — a container, a CI runner, headless Chromium — would otherwise
 * draw the cards' status icons as empty boxes. Served from the package, split by unicode-range,
 * so a browser downloads only the subsets a card uses.
 */
const FONT_DIR = dirname(createRequire(import.meta.url).resolve('@fontsource/noto-color-emoji/package.json'));
const FONT_FILE = /^\/emoji\/(noto-color-emoji-\d+-400-normal\.woff)$/;
let css: Promise<string> | undefined;

async function emojiCss(): Promise<string> {
  const source = await readFile(join(FONT_DIR, 'index.css'), 'utf8');
  // Only the woff sources, pointed at the sandbox's own route: headless Chromium draws nothing
  // from this font's woff2 files (they load, but every glyph renders empty), the woff ones work.
  // Declared for every weight, so emoji in bold headers and buttons use it too.
  return source.replace(/font-weight: 400;/g, 'font-weight: 100 900;').replace(/src: url\([^)]*\.woff2\) format\('woff2'\), url\(\.\/files\/([\w-]+\.woff)\) format\('woff'\);/g, "src: url(/emoji/$1) format('woff');");
}

/** Answers `/emoji.css` and `/emoji/<subset>.woff`; false for any other path. */
export async function serveEmoji(path: string, res: ServerResponse): Promise<boolean> {
  const headers = { 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' };
  if (path === '/emoji.css') {
    css ??= emojiCss();
    res.writeHead(200, { ...headers, 'content-type': 'text/css; charset=utf-8' });
    res.end(await css);
    return true;
  }
  const file = FONT_FILE.exec(path)?.[1];
  if (!file) return false;
  const body = await readFile(join(FONT_DIR, 'files', file)).catch(() => undefined);
  if (!body) return false;
  res.writeHead(200, { ...headers, 'content-type': 'font/woff' });
  res.end(body);
  return true;
}
