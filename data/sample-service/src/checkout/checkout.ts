import type { CartLine } from './cart.js';
import { computeCartTotal } from './cart-total.js';
import { findDiscount } from './discounts.js';
import type { StockService } from '../inventory/stock.js';
import type { Order, OrderRepository, OrderStatus } from '../orders/order-repository.js';
import type { PaymentClient } from '../payments/payment-client.js';
import { ShopError } from '../shared/errors.js';
import { addLogContext, type Logger } from '../shared/logger.js';

export interface CheckoutRequest {
  customerId: string;
  lines: CartLine[];
  discountCode?: string;
  paymentToken: string;
}

export interface CheckoutDeps {
  payments: PaymentClient;
  orders: OrderRepository;
  stock: StockService;
  log: Logger;
  currency: string;
  newOrderNumber: () => string;
  now: () => Date;
}

const STATUS_BY_AUTHORIZATION: Record<string, OrderStatus> = {
  approved: 'paid',
  declined: 'payment-declined',
  review: 'in-review',
};

export async function placeOrder(request: CheckoutRequest, deps: CheckoutDeps): Promise<Order> {
  const categories = [...new Set(request.lines.map((l) => l.category))].sort().join(',');
  deps.log.info('checkout started', { items: request.lines.length, categories, discountCode: request.discountCode });
  const discount = request.discountCode ? findDiscount(request.discountCode) : undefined;
  if (request.discountCode && !discount) {
    throw new ShopError('DISCOUNT_UNKNOWN', `Discount code ${request.discountCode} is not valid`);
  }
  const totals = computeCartTotal(request.lines, discount);
  const orderNumber = deps.newOrderNumber();
  addLogContext({ orderNumber });
  deps.log.info('cart priced', { items: request.lines.length, total: totals.total, discount: totals.discount, discountCode: discount?.code });

  await deps.stock.reserve(orderNumber, request.lines);
  try {
    const authorization = await deps.payments.authorize({
      orderNumber,
      amount: totals.total,
      currency: deps.currency,
      paymentToken: request.paymentToken,
    });
    const order: Order = {
      orderNumber,
      customerId: request.customerId,
      status: STATUS_BY_AUTHORIZATION[authorization.status] ?? 'pending',
      lines: totals.lines,
      total: totals.total,
      currency: deps.currency,
      authorizationId: authorization.authorizationId,
      txnId: authorization.txnId,
      createdAt: deps.now().toISOString(),
    };
    await deps.orders.save(order);
    if (order.status === 'paid') await deps.stock.commit(orderNumber);
    else await deps.stock.release(orderNumber);
    deps.log.info('order placed', { status: order.status, txn_id: authorization.txnId });
    return order;
  } catch (err) {
    deps.log.warn('checkout aborted, releasing stock', { reason: String(err) });
    await deps.stock.release(orderNumber);
    throw err;
  }
}
