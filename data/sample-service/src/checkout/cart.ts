import { ShopError } from '../shared/errors.js';
import type { Cents } from '../shared/money.js';

export type Category = 'apparel' | 'home' | 'electronics' | 'gift-card' | 'shipping';

export interface CartLine {
  sku: string;
  name: string;
  category: Category;
  unitPrice: Cents;
  quantity: number;
}

export interface PricedLine extends CartLine {
  /** This line's share of the order discount, in cents. */
  discount: Cents;
}

const MAX_QUANTITY = 99;

export function lineSubtotal(line: CartLine): Cents {
  return line.unitPrice * line.quantity;
}

export function assertCart(lines: readonly CartLine[]): void {
  if (lines.length === 0) throw new ShopError('CART_EMPTY', 'The cart is empty');
  for (const line of lines) {
    if (!Number.isInteger(line.quantity) || line.quantity < 1 || line.quantity > MAX_QUANTITY) {
      throw new ShopError('CART_QUANTITY_INVALID', `Quantity for ${line.sku} must be between 1 and ${MAX_QUANTITY}`);
    }
    if (!Number.isInteger(line.unitPrice) || line.unitPrice < 0) {
      throw new ShopError('CART_PRICE_INVALID', `Price for ${line.sku} is not a valid amount`);
    }
  }
}
