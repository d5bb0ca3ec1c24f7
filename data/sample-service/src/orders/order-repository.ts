import type { PricedLine } from '../checkout/cart.js';
import type { Cents } from '../shared/money.js';
import { pageWindow, toPage, type Page, type PageRequest } from './pagination.js';

export type OrderStatus = 'pending' | 'paid' | 'payment-declined' | 'in-review' | 'cancelled';

export interface Order {
  orderNumber: string;
  customerId: string;
  status: OrderStatus;
  lines: PricedLine[];
  total: Cents;
  currency: string;
  authorizationId: string | null;
  txnId?: string;
  createdAt: string;
}

/**
 * Orders by number and by customer, newest first. The production store is Postgres behind the
 * same interface; this one keeps everything in memory for local runs and tests.
 */
export class OrderRepository {
  private readonly byNumber = new Map<string, Order>();
  private readonly byCustomer = new Map<string, string[]>();

  async save(order: Order): Promise<void> {
    if (!this.byNumber.has(order.orderNumber)) {
      const numbers = this.byCustomer.get(order.customerId) ?? [];
      numbers.unshift(order.orderNumber);
      this.byCustomer.set(order.customerId, numbers);
    }
    this.byNumber.set(order.orderNumber, { ...order });
  }

  async findByNumber(orderNumber: string): Promise<Order | undefined> {
    return this.byNumber.get(orderNumber);
  }

  async countByCustomer(customerId: string): Promise<number> {
    return this.byCustomer.get(customerId)?.length ?? 0;
  }

  async listByCustomer(customerId: string, request: PageRequest): Promise<Page<Order>> {
    const numbers = this.byCustomer.get(customerId) ?? [];
    const window = pageWindow(request, numbers.length);
    const items = numbers
      .slice(window.offset, window.offset + window.limit)
      .flatMap((n) => {
        const order = this.byNumber.get(n);
        return order ? [order] : [];
      });
    return toPage(items, request, window, numbers.length);
  }

  async updateStatus(orderNumber: string, status: OrderStatus): Promise<void> {
    const order = this.byNumber.get(orderNumber);
    if (order) this.byNumber.set(orderNumber, { ...order, status });
  }
}
