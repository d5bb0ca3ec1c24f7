import { z } from 'zod';

/**
 * Identifier arguments (services, targets, clusters, namespaces, branches, paths, correlation ids)
 * must name exactly one thing. A selector — `*`, `all`, `%`, a glob, a regex — would let one
 * intent touch everything, so it is refused with a marker the gateway turns into
 * ERR_TOOL_WILDCARD_PROHIBITED before anything is dispatched.
 *
 * A character is refused only where it would select. Operational targets (slugs) go to the
 * operator's automation, which may expand patterns, so every metacharacter is refused there.
 * Names from the log source and repository paths reach their systems only as quoted literals
 * (SPL `field="…"`, git `:(literal)` pathspecs, exact comparisons), where `+`, `/`, `(`, `[`, `=`
 * are plain text — real correlation ids (`q3Zs+9kLp/0aBcD==`, `SO-(1001)`) and paths
 * (`app/[id]/page.tsx`) contain them. Only `*` still selects inside a quoted Splunk term, and a
 * bare selector word stays refused everywhere.
 */
export const WILDCARD_ISSUE = 'wildcard';

const SELECTOR_WORDS = new Set(['*', 'all', '%', 'any', 'every', 'everything', '_all', '--all', '-a', '.', '..']);
/** Glob, SQL LIKE and regex metacharacters; none appears in a real slug, path or branch. */
const SELECTOR_CHARS = /[*?%[\]{}()|^$+\\~!<>]/;
// Regex literals such as /payments.*/i.
const REGEX_LITERAL = /^\/[^/]+\/[gimsuy]*$/;

/** True for a bare selector word (`all`, `*`, `%`, `any`, …), whatever the context. */
export function isSelectorWord(value: string): boolean {
  return SELECTOR_WORDS.has(value.trim().toLowerCase());
}

/** A selector for a system that may expand patterns (the operator's automation). */
export function isSelector(value: string): boolean {
  const trimmed = value.trim();
  return isSelectorWord(trimmed) || SELECTOR_CHARS.test(trimmed) || REGEX_LITERAL.test(trimmed);
}

/** A selector even as a quoted literal: a bare selector word, or a `*` (Splunk expands it inside quotes). */
export function selectsAsLiteral(value: string): boolean {
  return isSelectorWord(value) || value.includes('*');
}

function refuseSelectors(value: string, ctx: z.RefinementCtx, selects: (value: string) => boolean = isSelector): boolean {
  if (!selects(value)) return true;
  ctx.addIssue({ code: 'custom', message: 'must name exactly one thing: wildcards, "all" and patterns are prohibited', params: { medic: WILDCARD_ISSUE } });
  return false;
}

/** For schemas built elsewhere (policy enums): the same refusal and marker as every identifier. */
export function refuseSelectorValue(value: string, ctx: z.RefinementCtx): boolean {
  return refuseSelectors(value, ctx, isSelectorWord);
}

function hasControlChars(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) if (value.charCodeAt(i) < 0x20) return true;
  return false;
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A strict slug (`payments-api`, `prod-eu-1`): operational action targets. */
export const slug = () =>
  z.string().superRefine((value, ctx) => {
    if (refuseSelectors(value, ctx) && !SLUG.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'must be a slug: lowercase letters, digits and dashes (e.g. payments-api)' });
    }
  });

/**
 * A name that came from the log source itself (service, correlation id) or a Slack reference.
 * Looser than a slug, because real services are called `Checkout API` and real ids carry `+/=()`;
 * used only as a quoted literal, so only what selects there is refused.
 */
export const explicitName = () =>
  z.string().superRefine((value, ctx) => {
    if (refuseSelectors(value, ctx, selectsAsLiteral) && (value.trim() === '' || value.length > 256 || hasControlChars(value))) {
      ctx.addIssue({ code: 'custom', message: 'must be a non-empty name of at most 256 printable characters' });
    }
  });

/** A path inside the repository: relative, no `..`, no selector. Read and logged as a literal pathspec. */
export const repoPath = () =>
  z.string().superRefine((value, ctx) => {
    if (!refuseSelectors(value, ctx, selectsAsLiteral)) return;
    const bad = value === '' || value.length > 512 || value.startsWith('/') || value.split('/').includes('..') || value.includes('\u0000');
    if (bad) ctx.addIssue({ code: 'custom', message: 'must be a relative path inside the repository (no leading /, no ..)' });
  });

/**
 * A fix branch. Only `fix/…` branches can be named, which is how "push to the default branch"
 * stays impossible even for a registered tool.
 */
export const fixBranch = () =>
  z.string().superRefine((value, ctx) => {
    if (refuseSelectors(value, ctx) && !/^fix\/[A-Za-z0-9._-]{1,120}$/.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'must be a fix branch: fix/<incident>-<timestamp>' });
    }
  });

/** True when a zod failure includes a selector refusal (the stable wildcard code wins over others). */
export function hasWildcardIssue(error: z.ZodError): boolean {
  return error.issues.some((issue) => issue.code === 'custom' && (issue.params as { medic?: string } | undefined)?.medic === WILDCARD_ISSUE);
}

/** One line per issue, path first: safe to show an operator (values are not echoed). */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(args)'}: ${issue.message}`).join('; ').slice(0, 500);
}
