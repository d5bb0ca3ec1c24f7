import { describe, expect, it } from 'vitest';
import type { CartLine } from '../src/checkout/cart.js';
import { averageItemPrice, computeCartTotal } from '../src/checkout/cart-total.js';
import { findDiscount } from '../src/checkout/discounts.js';

const hoodie: CartLine = { sku: 'AP-HOOD-GRY-M', name: 'Hoodie, grey, M', category: 'apparel', unitPrice: 4_900, quantity: 2 };
const mug: CartLine = { sku: 'HM-MUG-350', name: 'Mug 350 ml', category: 'home', unitPrice: 1_250, quantity: 1 };
const shipping: CartLine = { sku: 'SHIP-STD', name: 'Standard shipping', category: 'shipping', unitPrice: 495, quantity: 1 };

describe('computeCartTotal', () => {
  it('adds VAT on goods and keeps shipping apart', () => {
    const total = computeCartTotal([hoodie, mug, shipping]);
    expect(total.subtotal).toBe(11_050);
    expect(total.shipping).toBe(495);
    expect(total.discount).toBe(0);
    expect(total.tax).toBe(Math.round(9_800 * 0.21) + Math.round(1_250 * 0.21) + Math.round(495 * 0.21));
  });

  it('spreads a percent discount over the discountable items only', () => {
    const total = computeCartTotal([hoodie, mug, shipping], findDiscount('welcome10'));
    expect(total.discount).toBe(1_105);
    expect(total.lines.find((l) => l.category === 'shipping')?.discount).toBe(0);
    expect(total.lines.reduce((sum, l) => sum + l.discount, 0)).toBe(total.discount);
  });

  it('ignores a discount whose minimum spend is not reached', () => {
    const total = computeCartTotal([mug, shipping], findDiscount('WINTER15'));
    expect(total.discount).toBe(0);
  });

  it('rejects an empty cart', () => {
    expect(() => computeCartTotal([])).toThrow('The cart is empty');
  });

  it('reports the average price of the goods', () => {
    expect(averageItemPrice(computeCartTotal([hoodie, mug, shipping]))).toBe(Math.round(11_050 / 3));
  });
});
