/** Errors the HTTP layer knows how to answer; anything else is a 500 with code E_INTERNAL. */
export class ShopError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = 'ShopError';
  }
}

export function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'E_INTERNAL';
}

export function statusOf(err: unknown): number {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}

/** What a client may see: the message of a ShopError, never the text of an unexpected error. */
export function publicMessageOf(err: unknown): string {
  return err instanceof ShopError ? err.message : 'Internal error';
}
