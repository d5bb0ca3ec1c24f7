/**
 * A realistic error storm as JSON-lines logs: 20 families across services, each event with its
 * own order/customer/request ids, amounts and durations, and a Node stack trace whose line and
 * column numbers drift (as across deploys). Deterministic: a seeded generator, no Math.random.
 */

export interface StormFamily {
  service: string;
  /** Builds one message; `n` is the event's number, `rand` a seeded source. */
  message: (n: number, rand: () => number) => string;
  exception: string;
  frames: { fn: string; file: string }[];
}

const hex = (rand: () => number, len: number) => Array.from({ length: len }, () => Math.floor(rand() * 16).toString(16)).join('');
const int = (rand: () => number, max: number) => 1 + Math.floor(rand() * max);

export const STORM_FAMILIES: StormFamily[] = [
  { service: 'checkout', exception: 'PaymentError', message: (n, r) => `Payment declined for order SO-${100000 + n} (customer c_${hex(r, 6)}1)`, frames: [{ fn: 'chargeCard', file: 'src/payments/charge.ts' }, { fn: 'placeOrder', file: 'src/checkout/checkout.ts' }] },
  { service: 'checkout', exception: 'TimeoutError', message: (n, r) => `Payment timeout for order SO-${100000 + n} after ${int(r, 9000)}ms`, frames: [{ fn: 'callGateway', file: 'src/payments/gateway.ts' }, { fn: 'chargeCard', file: 'src/payments/charge.ts' }] },
  { service: 'checkout', exception: 'RangeError', message: (n, r) => `Invalid discount per item: ${int(r, 99)}.${int(r, 99)} for cart cart-${n}`, frames: [{ fn: 'spreadDiscount', file: 'src/checkout/discounts.ts' }, { fn: 'priceCart', file: 'src/checkout/cart-total.ts' }] },
  { service: 'payments', exception: 'Error', message: (n, r) => `card token tok_${hex(r, 12)}9 expired for merchant m-${int(r, 500)}`, frames: [{ fn: 'resolveToken', file: 'src/tokens/vault.ts' }, { fn: 'authorize', file: 'src/authorize.ts' }] },
  { service: 'payments', exception: 'FetchError', message: (n, r) => `request to http://fraud-svc:8080/score/${n} failed, reason: connect ECONNREFUSED 10.0.${int(r, 254)}.${int(r, 254)}:8080`, frames: [{ fn: 'scoreFraud', file: 'src/fraud/client.ts' }, { fn: 'authorize', file: 'src/authorize.ts' }] },
  { service: 'orders', exception: 'TypeError', message: (n) => `Cannot read properties of undefined (reading 'sku') at line item ${n % 40}`, frames: [{ fn: 'toLineItem', file: 'src/orders/map-line.ts' }, { fn: 'createOrder', file: 'src/orders/create.ts' }] },
  { service: 'orders', exception: 'Error', message: (n, r) => `Order ${200000 + n} not found in shard ${int(r, 16)}`, frames: [{ fn: 'loadOrder', file: 'src/orders/repository.ts' }, { fn: 'getOrder', file: 'src/orders/routes.ts' }] },
  { service: 'inventory', exception: 'Error', message: (n, r) => `Stock for SKU-${int(r, 90000)} went negative: -${int(r, 20)} units (reservation r${n})`, frames: [{ fn: 'reserve', file: 'src/stock/reserve.ts' }, { fn: 'handleReserve', file: 'src/stock/consumer.ts' }] },
  { service: 'inventory', exception: 'DeadlockError', message: (n, r) => `deadlock detected while updating warehouse w${int(r, 12)} row ${n}`, frames: [{ fn: 'updateStock', file: 'src/db/stock-table.ts' }, { fn: 'reserve', file: 'src/stock/reserve.ts' }] },
  { service: 'search', exception: 'Error', message: (n, r) => `query q-${hex(r, 8)}7 exceeded ${int(r, 5000)}ms budget on index products_v${int(r, 3)}`, frames: [{ fn: 'runQuery', file: 'src/search/engine.ts' }, { fn: 'search', file: 'src/search/routes.ts' }] },
  { service: 'search', exception: 'SyntaxError', message: (n) => `Unexpected token } in JSON at position ${n % 997}`, frames: [{ fn: 'parseFacets', file: 'src/search/facets.ts' }, { fn: 'search', file: 'src/search/routes.ts' }] },
  { service: 'auth', exception: 'JsonWebTokenError', message: (n, r) => `jwt malformed for session s${n}-${hex(r, 4)}3`, frames: [{ fn: 'verifyToken', file: 'src/auth/jwt.ts' }, { fn: 'requireUser', file: 'src/auth/middleware.ts' }] },
  { service: 'auth', exception: 'Error', message: (n, r) => `rate limit exceeded for user u${int(r, 99999)}: ${int(r, 500)} requests in 60s`, frames: [{ fn: 'checkRate', file: 'src/auth/rate-limit.ts' }, { fn: 'login', file: 'src/auth/routes.ts' }] },
  { service: 'shipping', exception: 'Error', message: (n, r) => `carrier ups rejected label for shipment SH${300000 + n}: weight ${int(r, 70)}kg over limit`, frames: [{ fn: 'buyLabel', file: 'src/carriers/ups.ts' }, { fn: 'ship', file: 'src/shipping/ship.ts' }] },
  { service: 'shipping', exception: 'TypeError', message: (n) => `address.postcode is not a function (shipment SH${300000 + n})`, frames: [{ fn: 'normalizeAddress', file: 'src/shipping/address.ts' }, { fn: 'ship', file: 'src/shipping/ship.ts' }] },
  { service: 'notifications', exception: 'Error', message: (n, r) => `SMTP 451 temporary failure sending receipt ${n} to mx${int(r, 9)}.mail.example.net`, frames: [{ fn: 'sendMail', file: 'src/mail/smtp.ts' }, { fn: 'sendReceipt', file: 'src/receipts.ts' }] },
  { service: 'notifications', exception: 'Error', message: (n, r) => `push token pt_${hex(r, 10)}2 unregistered (device d${n})`, frames: [{ fn: 'sendPush', file: 'src/push/apns.ts' }, { fn: 'notify', file: 'src/notify.ts' }] },
  { service: 'catalog', exception: 'Error', message: (n, r) => `image resize failed for product P${n}: ${int(r, 4000)}x${int(r, 4000)} exceeds limit`, frames: [{ fn: 'resize', file: 'src/images/resize.ts' }, { fn: 'ingestProduct', file: 'src/catalog/ingest.ts' }] },
  { service: 'catalog', exception: 'ValidationError', message: (n, r) => `price must be positive, got -${int(r, 999)}.${int(r, 99)} for SKU-${n}`, frames: [{ fn: 'validatePrice', file: 'src/catalog/validate.ts' }, { fn: 'ingestProduct', file: 'src/catalog/ingest.ts' }] },
  { service: 'gateway', exception: 'Error', message: (n, r) => `upstream orders responded 503 in ${int(r, 3000)}ms for trace ${hex(r, 16)}0`, frames: [{ fn: 'proxy', file: 'src/proxy/forward.ts' }, { fn: 'handle', file: 'src/server.ts' }] },
];

/** A small seeded generator (mulberry32), so a storm is the same on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function stackOf(family: StormFamily, message: string, rand: () => number): string {
  const frames = family.frames.map((f) => `    at ${f.fn} (/srv/${family.service}/${f.file}:${int(rand, 400)}:${int(rand, 60)})`);
  const runtime = ['    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)', `    at async Server.<anonymous> (/srv/${family.service}/node_modules/express/lib/router/index.js:${int(rand, 600)}:${int(rand, 30)})`];
  return [`${family.exception}: ${message}`, ...frames, ...runtime].join('\n');
}

/**
 * `total` error lines spread round-robin over `families`, one JSON object per line, times
 * spread over `spanMs` from `base`. Returned as chunks of at most `perChunk` lines (the file
 * source reads 16 MB per file per poll, so a storm is written as several files of one poll).
 */
export function stormLines(options: { total: number; families?: StormFamily[]; base?: number; spanMs?: number; perChunk?: number; seed?: number }): string[] {
  const families = options.families ?? STORM_FAMILIES;
  const base = options.base ?? Date.parse('2026-11-30T09:00:00.000Z');
  const span = options.spanMs ?? 600_000;
  const perChunk = options.perChunk ?? 25_000;
  const rand = seeded(options.seed ?? 7);
  const chunks: string[] = [];
  let lines: string[] = [];
  for (let n = 0; n < options.total; n++) {
    const family = families[n % families.length]!;
    const message = family.message(n, rand);
    lines.push(JSON.stringify({
      time: new Date(base + Math.floor((n * span) / options.total)).toISOString(), level: 'ERROR', service: family.service,
      message, requestId: `req-${hex(rand, 8)}${n}`, stack: stackOf(family, message, rand),
    }));
    if (lines.length === perChunk) {
      chunks.push(lines.join('\n') + '\n');
      lines = [];
    }
  }
  if (lines.length > 0) chunks.push(lines.join('\n') + '\n');
  return chunks;
}
