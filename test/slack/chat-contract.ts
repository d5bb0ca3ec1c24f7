/**
 * The Chat port's contract: what the pipeline relies on from any chat (Slack, the sandbox, the
 * console). Run against each implementation with a way to read back what was posted.
 */
import { describe, expect, it } from 'vitest';
import type { Chat, ChatMessage } from '../../src/ports/chat.js';

export interface ChatProbe {
  chat: Chat;
  /** A second instance over the same channel: a restarted worker or a second process. */
  restarted(): Chat;
  /** Top-level messages with the key, and thread replies under a card. */
  cardsWithText(text: string): Promise<number>;
  replies(ts: string): Promise<string[]>;
  textOf(ts: string): Promise<string | undefined>;
}

const message = (text: string): ChatMessage => ({ text, blocks: [{ type: 'section', text: { type: 'mrkdwn', text } }] });

export function describeChatContract(name: string, setup: () => Promise<ChatProbe>): void {
  describe(`Chat contract: ${name}`, () => {
    it('posts a card once per key, even from a restarted instance', async () => {
      const probe = await setup();
      const first = await probe.chat.postCard('contract-card-1', message('contract card one'));
      const again = await probe.chat.postCard('contract-card-1', message('contract card one'));
      const afterRestart = await probe.restarted().postCard('contract-card-1', message('contract card one'));
      expect(again).toEqual(first);
      expect(afterRestart).toEqual(first);
      expect(await probe.cardsWithText('contract card one')).toBe(1);
    });

    it('leaves one card when two instances race on the same key', async () => {
      const probe = await setup();
      const [a, b] = await Promise.all([probe.chat.postCard('contract-race', message('race card')), probe.restarted().postCard('contract-race', message('race card'))]);
      expect(a).toEqual(b);
      expect(await probe.cardsWithText('race card')).toBe(1);
    });

    it('updates a card in place', async () => {
      const probe = await setup();
      const ref = await probe.chat.postCard('contract-update', message('before update'));
      await probe.chat.updateCard(ref, message('after update'));
      expect(await probe.textOf(ref.ts)).toBe('after update');
    });

    it('replies in the thread once per key', async () => {
      const probe = await setup();
      const ref = await probe.chat.postCard('contract-thread', message('thread parent'));
      await probe.chat.replyInThread(ref, 'reply-1', message('branch fix/x'));
      await probe.chat.replyInThread(ref, 'reply-1', message('branch fix/x'));
      await probe.restarted().replyInThread(ref, 'reply-1', message('branch fix/x'));
      await probe.chat.replyInThread(ref, 'reply-2', message('PR #1'));
      expect(await probe.replies(ref.ts)).toEqual(['branch fix/x', 'PR #1']);
    });

    it('reports its health', async () => {
      const probe = await setup();
      const check = await probe.chat.check();
      expect(check).toMatchObject({ name: 'chat', ok: true });
    });
  });
}
