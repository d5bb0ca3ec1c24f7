import type { RcaResult, Recommendation, SimilarDoc } from '../../src/domain/analysis.js';
import type { ErrorEvent, LogEntry } from '../../src/domain/event.js';
import type { CodeCandidate, FixInput, RcaInput } from '../../src/ports/analyst.js';

export function buildEvent(overrides: Partial<ErrorEvent> = {}): ErrorEvent {
  return {
    id: 'file:data/logs/checkout.log:1200',
    source: 'file',
    time: '2026-03-02T10:15:00.000Z',
    service: 'checkout',
    severity: 'error',
    message: 'TypeError: Cannot read properties of undefined (reading "price") at computeTotal (src/cart/total.ts:42)',
    raw: 'TypeError: Cannot read properties of undefined (reading "price")\n    at computeTotal (src/cart/total.ts:42:17)\n    at checkout (src/routes/checkout.ts:88:10)',
    errorCode: 'CO-500',
    correlationIds: { requestId: 'req-77' },
    fields: {},
    ...overrides,
  };
}

export function buildLogEntries(count: number, message: (i: number) => string = (i) => `GET /api/cart 200 in ${10 + i}ms`): LogEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `log-${i}`,
    time: new Date(Date.parse('2026-03-02T10:10:00.000Z') + i * 1_000).toISOString(),
    level: 'info',
    service: 'checkout',
    message: message(i),
  }));
}

export function buildDocs(): SimilarDoc[] {
  return [
    { id: 'doc-co-500', title: 'CO-500: checkout total fails on removed catalogue items', excerpt: 'A cart line whose product was removed has no price; computeTotal dereferences it.', source: 'docs/errors.md', similarity: 0.82 },
    { id: 'doc-pay-401', title: 'PAY-401: payment gateway token expired', excerpt: 'Rotate the gateway token.', source: 'docs/errors.md', similarity: 0.31 },
  ];
}

export function buildRcaInput(overrides: Partial<RcaInput> = {}): RcaInput {
  const entries = buildLogEntries(6);
  entries.push({ id: 'log-6', time: '2026-03-02T10:15:00.000Z', level: 'error', service: 'checkout', message: buildEvent().message });
  return {
    event: buildEvent(),
    title: 'TypeError in computeTotal',
    logs: { entries, from: '2026-03-02T10:10:00.000Z', to: '2026-03-02T10:20:00.000Z' },
    similarDocs: buildDocs(),
    recentChanges: [{ sha: 'a1b2c3d4e5f6', author: 'dev', date: '2026-03-01', subject: 'Allow removing catalogue items', files: ['src/cart/total.ts'] }],
    ...overrides,
  };
}

export function buildRcaAnswer(overrides: Partial<RcaResult> = {}): RcaResult {
  return {
    rootCause: 'computeTotal reads price of a cart line whose product was removed from the catalogue.',
    contributingFactors: ['Recent change allowed removing catalogue items'],
    evidenceIds: ['log-6', 'doc-co-500'],
    impactedComponent: 'checkout/src/cart/total.ts',
    severity: 'error',
    confidence: 0.8,
    summary: 'Checkout fails for carts holding removed products.',
    sequenceOfEvents: ['Product removed', 'Cart total computed', 'TypeError'],
    ...overrides,
  };
}

export function buildRecommendation(overrides: Partial<Recommendation> = {}): Recommendation {
  return { kind: 'fix', summary: 'Skip cart lines without a product in computeTotal.', steps: ['Guard the lookup'], risk: 'low', ...overrides };
}

export const TOTAL_TS = [
  'export function computeTotal(lines: { product?: { price: number }; qty: number }[]): number {',
  '  let total = 0;',
  '  for (const line of lines) {',
  '    total += line.product.price * line.qty;',
  '  }',
  '  return total;',
  '}',
  '',
].join('\n');

export const FIXED_TOTAL_TS = TOTAL_TS.replace('    total += line.product.price * line.qty;', '    if (!line.product) continue;\n    total += line.product.price * line.qty;');

export function buildCandidates(): CodeCandidate[] {
  return [
    { file: 'src/cart/total.ts', content: TOTAL_TS, score: 0.9 },
    { file: 'src/routes/checkout.ts', content: 'export const checkout = () => computeTotal([]);\n', score: 0.4 },
  ];
}

export function buildFixInput(overrides: Partial<FixInput> = {}): FixInput {
  return { event: buildEvent(), rca: buildRcaAnswer(), recommendation: buildRecommendation(), candidates: buildCandidates(), ...overrides };
}
