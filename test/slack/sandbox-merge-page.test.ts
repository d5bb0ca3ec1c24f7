/**
 * The page side of "Merge fix branch" (src/sandbox/page/merge-action.js) over a minimal stand-in
 * for the DOM: which reply gets the button, how a merged branch shows, and what a click sends.
 * The browser tests run the real page; this one pins the choices the module makes.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

interface FakeNode {
  className: string;
  textContent: string;
  type?: string;
  title?: string;
  disabled?: boolean;
  dataset: Record<string, string>;
  children: FakeNode[];
  listeners: Record<string, () => void>;
  append(...nodes: FakeNode[]): void;
  addEventListener(type: string, fn: () => void): void;
  querySelectorAll(selector: string): FakeNode[];
}

function node(className = ''): FakeNode {
  const self: FakeNode = {
    className, textContent: '', dataset: {}, children: [], listeners: {},
    append: (...nodes) => void self.children.push(...nodes),
    addEventListener: (type, fn) => void (self.listeners[type] = fn),
    querySelectorAll: (selector) => (selector === '.reply' ? self.children.filter((c) => c.className.split(' ').includes('reply')) : []),
  };
  return self;
}

const posts: unknown[] = [];
const status = node();
let addMergeAction: (thread: FakeNode, replies: unknown[]) => void;

beforeAll(async () => {
  vi.stubGlobal('document', { createElement: () => node(), querySelector: (s: string) => (s === '#user' ? { value: 'U0VIEWER' } : s === '#status' ? status : null) });
  vi.stubGlobal('fetch', async (path: string, init?: { method?: string; body?: string }) => {
    if (init?.method === 'POST') posts.push({ path, body: JSON.parse(init.body ?? '{}') as unknown });
    return { status: 200, json: async () => (init?.method === 'POST' ? { ok: true, into: 'main', alreadyMerged: false } : { available: true }) };
  });
  // @ts-expect-error -- a browser module without type declarations
  ({ addMergeAction } = (await import('../../src/sandbox/page/merge-action.js')) as { addMergeAction: typeof addMergeAction });
});
afterAll(() => vi.unstubAllGlobals());

const BRANCH = 'fix/INC-3-20260301102030';
const reply = (ts: string, text: string, extra: Record<string, unknown> = {}) => ({ ts, text, fromBot: true, ephemeral: false, ...extra });

function threadOf(replies: { ts: string }[]): FakeNode {
  const thread = node('thread');
  thread.append(node('meta'));
  for (const r of replies) {
    const n = node('reply');
    n.dataset.ts = r.ts;
    thread.append(n);
  }
  return thread;
}

const buttonsIn = (thread: FakeNode) => thread.querySelectorAll('.reply').flatMap((r) => r.children.filter((c) => c.className.includes('merge-action')).map((box) => ({ ts: r.dataset.ts, button: box.children[0]! })));

describe('the page\'s Merge fix branch button', () => {
  it('sits on the last reply of Medic announcing the branch, and a click names that reply', async () => {
    const replies = [
      reply('1.1', '*Approved* — Medic is preparing the fix.'),
      reply('1.2', `*Branch pushed* — \`${BRANCH}\` (commit \`abc\`).`),
      reply('1.3', `*Branch pushed* — \`${BRANCH}\` is ready; no pull request was opened.`),
      reply('1.4', `someone pasted \`${BRANCH}\``, { fromBot: false }),
      reply('1.5', `\`fix/INC-9-20260301102030\``, { ephemeral: true }),
    ];
    const thread = threadOf(replies);
    addMergeAction(thread, replies);
    const buttons = buttonsIn(thread);
    expect(buttons.map((b) => [b.ts, b.button.textContent, b.button.disabled])).toEqual([['1.3', 'Merge fix branch', false]]);
    buttons[0]!.button.listeners.click!();
    await vi.waitFor(() => expect(status.textContent).toContain('is merged into main'));
    expect(posts).toEqual([{ path: '/sandbox/merge', body: { userId: 'U0VIEWER', messageTs: '1.3' } }]);
  });

  it('shows the branch merged once the thread says so', () => {
    const replies = [reply('2.1', `*Branch pushed* — \`${BRANCH}\`.`), reply('2.2', `🔀 \`${BRANCH}\` merged into \`main\` by <@U0VIEWER>`, { fromBot: false })];
    const thread = threadOf(replies);
    addMergeAction(thread, replies);
    expect(buttonsIn(thread).map((b) => [b.button.textContent, b.button.disabled])).toEqual([[`Merged ${BRANCH}`, true]]);
  });
});
