import { assertCart, lineSubtotal, type CartLine, type PricedLine } from './cart.js';
import { applyDiscounts, type Discount } from './discounts.js';
import { sumCents, type Cents } from '../shared/money.js';

export interface CartTotal {
  lines: PricedLine[];
  subtotal: Cents;
  discount: Cents;
  tax: Cents;
  shipping: Cents;
  total: Cents;
}

/** Prices are shown without VAT; gift cards are VAT-exempt until redeemed. */
const VAT_RATE = 0.21;

function taxOf(line: PricedLine): Cents {
  if (line.category === 'gift-card') return 0;
  return Math.round((lineSubtotal(line) - line.discount) * VAT_RATE);
}

export function computeCartTotal(lines: readonly CartLine[], discount?: Discount): CartTotal {
  assertCart(lines);
  const priced = applyDiscounts(lines, discount);
  const subtotal = sumCents(priced.filter((l) => l.category !== 'shipping').map(lineSubtotal));
  const shipping = sumCents(priced.filter((l) => l.category === 'shipping').map(lineSubtotal));
  const discountTotal = sumCents(priced.map((l) => l.discount));
  const tax = sumCents(priced.map(taxOf));
  return {
    lines: priced,
    subtotal,
    discount: discountTotal,
    tax,
    shipping,
    total: subtotal + shipping - discountTotal + tax,
  };
}

/** Average price of the goods in the cart, shown on the order confirmation. */
export function averageItemPrice(total: CartTotal): Cents {
  const goods = total.lines.filter((l) => l.category !== 'shipping');
  const items = goods.reduce((n, l) => n + l.quantity, 0);
  return items === 0 ? 0 : Math.round(total.subtotal / items);
}
