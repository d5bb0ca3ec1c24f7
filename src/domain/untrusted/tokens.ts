/**
 * Token estimate used for budgets and the token benchmark: one token per 4 characters, rounded up.
 * OpenAI's own rule of thumb for English text; log lines (numbers, ids, punctuation) tokenize
 * denser, so the estimate errs low there by roughly 10-30%. Budgets leave headroom for that.
 */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** The chat-format overhead per message (role, separators) the API adds on top of the content. */
export const TOKENS_PER_MESSAGE = 4;

export function estimateChatTokens(messages: { content: string }[]): number {
  return messages.reduce((sum, m) => sum + TOKENS_PER_MESSAGE + estimateTokens(m.content), 3);
}
