import { placeOrder, type CheckoutDeps, type CheckoutRequest } from '../checkout/checkout.js';
import { parsePageRequest } from '../orders/pagination.js';
import { ShopError } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';

export interface RouteContext {
  url: URL;
  body: unknown;
  customerId: string | undefined;
  log: Logger;
}

export interface RouteResult {
  status: number;
  body: unknown;
}

export interface RouteDeps extends CheckoutDeps {
  ordersPageSize: number;
}

type Handler = (ctx: RouteContext, deps: RouteDeps) => Promise<RouteResult>;

function requireCustomer(ctx: RouteContext): string {
  if (!ctx.customerId) throw new ShopError('UNAUTHENTICATED', 'Sign in to continue', 401);
  return ctx.customerId;
}

function parseCheckout(body: unknown, customerId: string): CheckoutRequest {
  const b = (body ?? {}) as Partial<CheckoutRequest>;
  if (!Array.isArray(b.lines) || typeof b.paymentToken !== 'string') {
    throw new ShopError('CHECKOUT_INVALID', 'A checkout needs lines and a paymentToken');
  }
  return { customerId, lines: b.lines, discountCode: b.discountCode, paymentToken: b.paymentToken };
}

export async function handleCheckout(ctx: RouteContext, deps: RouteDeps): Promise<RouteResult> {
  const request = parseCheckout(ctx.body, requireCustomer(ctx));
  const order = await placeOrder(request, { ...deps, log: ctx.log });
  return { status: order.status === 'paid' ? 201 : 202, body: order };
}

export async function handleListOrders(ctx: RouteContext, deps: RouteDeps): Promise<RouteResult> {
  const customerId = requireCustomer(ctx);
  const page = await deps.orders.listByCustomer(customerId, parsePageRequest(ctx.url.searchParams, deps.ordersPageSize));
  return { status: 200, body: page };
}

export async function handleGetOrder(ctx: RouteContext, deps: RouteDeps): Promise<RouteResult> {
  const customerId = requireCustomer(ctx);
  const orderNumber = ctx.url.pathname.split('/').pop() ?? '';
  const order = await deps.orders.findByNumber(orderNumber);
  if (!order || order.customerId !== customerId) throw new ShopError('ORDER_NOT_FOUND', `No order ${orderNumber}`, 404);
  return { status: 200, body: order };
}

async function handleHealth(): Promise<RouteResult> {
  return { status: 200, body: { ok: true } };
}

const ROUTES: { method: string; pattern: RegExp; handler: Handler }[] = [
  { method: 'GET', pattern: /^\/healthz$/, handler: handleHealth },
  { method: 'POST', pattern: /^\/checkout$/, handler: handleCheckout },
  { method: 'GET', pattern: /^\/orders$/, handler: handleListOrders },
  { method: 'GET', pattern: /^\/orders\/[A-Z0-9-]{6,32}$/, handler: handleGetOrder },
];

export function route(method: string, pathname: string): Handler | undefined {
  return ROUTES.find((r) => r.method === method && r.pattern.test(pathname))?.handler;
}
