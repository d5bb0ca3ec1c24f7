import type { ChatMessage } from '../../ports/chat.js';
import { TITLE_SEPARATOR } from '../../presenters/card-summary.js';

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

const unescape = (text: string) => text.replace(/\u200b/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The one-line view of a card: its incident id, its status word and a headline (title or first line). */
export function summarizeCard(message: ChatMessage): { id?: string; status?: string; headline: string } {
  const blocks = message.blocks as (Block & { block_id?: string })[];
  const fields = blocks.find((b) => b.block_id === 'medic_fields')?.fields ?? [];
  const status = fields.map((f) => f.text ?? '').find((t) => t.startsWith('*Status*'))?.split('\n')[1];
  const contextText = blocks.find((b) => b.block_id === 'medic_context')?.elements?.map((e) => (typeof e.text === 'string' ? e.text : '')).join(' ') ?? '';
  const id = /Incident `([^`]+)`/.exec(contextText)?.[1];
  // The card's header: "<severity> · <service> — <title>"; the title is what follows the separator.
  const header = blocks.find((b) => b.block_id === 'medic_title')?.text?.text;
  const at = header?.indexOf(TITLE_SEPARATOR) ?? -1;
  const title = header && at >= 0 ? header.slice(at + TITLE_SEPARATOR.length) : header;
  const first = (title ?? message.text).split('\n')[0] ?? '';
  const headline = unescape(first.replace(/[*_`]/g, (c) => (title ? c : ''))).slice(0, 140);
  return { ...(id ? { id } : {}), ...(status ? { status: unescape(status).replace(/^\S+\s/, '') } : {}), headline };
}
