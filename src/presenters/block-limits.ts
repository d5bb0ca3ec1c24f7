/**
 * Slack's Block Kit limits (REFERENCE §2.6): 50 blocks per message, 3,000 characters per section
 * text, and an undocumented aggregate of about 13.2k characters (`msg_blocks_too_long`). Medic keeps
 * well under the aggregate so a card never fails to post.
 */
export const LIMITS = { blocks: 50, sectionText: 3_000, headerText: 150, buttonValue: 2_000, totalText: 12_000 } as const;

type Block = Record<string, unknown>;

/** Sum of every text Slack counts in a block list (section text, fields, context, header). */
export function measureText(blocks: Block[]): number {
  let total = 0;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'text' && typeof value === 'string') total += value.length;
        else visit(value);
      }
    }
  };
  visit(blocks);
  return total;
}

/**
 * Keeps a message within the limits by dropping optional blocks, the highest `dropRank` first
 * (evidence and similar docs go before the diff); blocks without a rank (header, outcome, buttons)
 * always stay.
 */
export function fitToLimits(blocks: { block: Block; dropRank?: number }[]): Block[] {
  const kept = [...blocks];
  const over = () => kept.length > LIMITS.blocks || measureText(kept.map((b) => b.block)) > LIMITS.totalText;
  while (over()) {
    let index = -1;
    kept.forEach((b, i) => {
      if (b.dropRank !== undefined && (index < 0 || b.dropRank >= (kept[index]?.dropRank ?? 0))) index = i;
    });
    if (index < 0) break;
    kept.splice(index, 1);
  }
  return kept.map((b) => b.block).slice(0, LIMITS.blocks);
}
