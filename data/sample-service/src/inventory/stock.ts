import type { CartLine } from '../checkout/cart.js';
import { ShopError } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';

/** Stock held for an order between pricing and payment; released if payment does not go through. */
interface Reservation {
  orderNumber: string;
  items: Map<string, number>;
}

export class StockService {
  private readonly available = new Map<string, number>();
  private readonly reservations = new Map<string, Reservation>();

  constructor(
    private readonly log: Logger,
    private readonly lowStockThreshold: number,
    initial: Record<string, number> = {},
  ) {
    for (const [sku, count] of Object.entries(initial)) this.available.set(sku, count);
  }

  /** Gift cards and shipping are not stocked. */
  private isStocked(line: CartLine): boolean {
    return line.category !== 'gift-card' && line.category !== 'shipping';
  }

  async reserve(orderNumber: string, lines: readonly CartLine[]): Promise<void> {
    const items = new Map<string, number>();
    for (const line of lines.filter((l) => this.isStocked(l))) {
      const have = this.available.get(line.sku) ?? 0;
      if (have < line.quantity) {
        throw new ShopError('OUT_OF_STOCK', `Only ${have} of ${line.sku} left`, 409);
      }
      items.set(line.sku, (items.get(line.sku) ?? 0) + line.quantity);
    }
    for (const [sku, count] of items) {
      const left = (this.available.get(sku) ?? 0) - count;
      this.available.set(sku, left);
      if (left <= this.lowStockThreshold) this.log.warn('stock low', { sku, left, orderNumber });
    }
    this.reservations.set(orderNumber, { orderNumber, items });
  }

  async release(orderNumber: string): Promise<void> {
    const reservation = this.reservations.get(orderNumber);
    if (!reservation) return;
    for (const [sku, count] of reservation.items) this.available.set(sku, (this.available.get(sku) ?? 0) + count);
    this.reservations.delete(orderNumber);
    this.log.info('stock released', { orderNumber, skus: reservation.items.size });
  }

  /** Payment went through: the reservation becomes a sale. */
  async commit(orderNumber: string): Promise<void> {
    this.reservations.delete(orderNumber);
  }

  level(sku: string): number {
    return this.available.get(sku) ?? 0;
  }
}
