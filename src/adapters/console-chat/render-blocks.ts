import type { ChatMessage } from '../../ports/chat.js';

interface TextObject { text?: string }
interface Element { text?: TextObject | string; action_id?: string; style?: string }
interface Block { type?: string; text?: TextObject; fields?: TextObject[]; elements?: Element[] }

/** Renders Block Kit as plain text for a terminal: sections, context lines and buttons. */
export function renderBlocks(message: ChatMessage): string {
  const lines: string[] = [];
  for (const raw of message.blocks as Block[]) {
    if (raw.type === 'divider') lines.push('────────────────────────────────────────');
    if (raw.text?.text) lines.push(raw.text.text);
    for (const field of raw.fields ?? []) if (field.text) lines.push(field.text);
    if (raw.type === 'context') for (const el of raw.elements ?? []) if (typeof el.text === 'string') lines.push(el.text);
    if (raw.type === 'actions') {
      const buttons = (raw.elements ?? []).map((el) => `[ ${typeof el.text === 'object' ? el.text.text ?? el.action_id : el.action_id} ]`);
      lines.push(buttons.join(' '));
    }
  }
  // Slack's escaping is for Slack; a terminal shows the characters themselves.
  return (lines.length > 0 ? lines.join('\n') : message.text).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
