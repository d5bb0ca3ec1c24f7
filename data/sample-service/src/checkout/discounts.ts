import { lineSubtotal, type CartLine, type PricedLine } from './cart.js';
import { percentOf, sumCents, type Cents } from '../shared/money.js';

export interface Discount {
  code: string;
  kind: 'percent' | 'fixed';
  /** Percent (0–100) for `percent`, cents for `fixed`. */
  value: number;
  minSubtotal?: Cents;
}

const CODES: Record<string, Discount> = {
  WELCOME10: { code: 'WELCOME10', kind: 'percent', value: 10 },
  WINTER15: { code: 'WINTER15', kind: 'percent', value: 15, minSubtotal: 5_000 },
  FIVEOFF: { code: 'FIVEOFF', kind: 'fixed', value: 500, minSubtotal: 2_500 },
  VIP20: { code: 'VIP20', kind: 'percent', value: 20 },
};

export function findDiscount(code: string): Discount | undefined {
  return CODES[code.trim().toUpperCase()];
}

/** Gift cards and shipping never carry a share of a discount. */
export function isDiscountable(line: CartLine): boolean {
  return line.category !== 'gift-card' && line.category !== 'shipping';
}

/** The order-level discount; the minimum spend counts everything but shipping. */
export function orderDiscount(discount: Discount, lines: readonly CartLine[]): Cents {
  const merchandise = sumCents(lines.filter((l) => l.category !== 'shipping').map(lineSubtotal));
  if (discount.minSubtotal !== undefined && merchandise < discount.minSubtotal) return 0;
  const amount = discount.kind === 'percent' ? percentOf(merchandise, Math.min(discount.value, 100)) : discount.value;
  return Math.min(amount, merchandise);
}

/**
 * Spreads an order discount over the discountable items, so a partial refund can give back
 * exactly the discount that item carried. Leftover cents go to the first eligible line.
 */
export function spreadDiscount(lines: readonly CartLine[], amount: Cents): PricedLine[] {
  const itemCount = lines.filter(isDiscountable).reduce((n, line) => n + line.quantity, 0);
  const perItem = Math.floor(amount / itemCount);
  if (!Number.isFinite(perItem) || perItem < 0) {
    throw Object.assign(new RangeError(`Invalid discount per item: ${perItem}`), { code: 'DISCOUNT_INVALID' });
  }
  let remainder = amount - perItem * itemCount;
  return lines.map((line) => {
    if (!isDiscountable(line)) return { ...line, discount: 0 };
    const share = Math.min(perItem * line.quantity + remainder, lineSubtotal(line));
    remainder = 0;
    return { ...line, discount: share };
  });
}

export function applyDiscounts(lines: readonly CartLine[], discount: Discount | undefined): PricedLine[] {
  if (!discount) return lines.map((line) => ({ ...line, discount: 0 }));
  const amount = orderDiscount(discount, lines);
  return spreadDiscount(lines, amount);
}
