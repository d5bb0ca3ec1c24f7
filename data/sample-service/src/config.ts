/** Service configuration, read once at start; the environment is a parameter so tests can pass their own. */
export interface ShopConfig {
  port: number;
  currency: string;
  paymentGatewayUrl: string;
  paymentTimeoutMs: number;
  paymentMaxAttempts: number;
  ordersPageSize: number;
  lowStockThreshold: number;
}

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) {
    throw new Error(`${name} must be a positive integer, got "${value}"`);
  }
  return parsed;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ShopConfig {
  return {
    port: intFrom(env.PORT, 8080, 'PORT'),
    currency: env.SHOP_CURRENCY ?? 'EUR',
    paymentGatewayUrl: env.PAYMENT_GATEWAY_URL ?? 'http://payments.internal:9000',
    paymentTimeoutMs: intFrom(env.PAYMENT_TIMEOUT_MS, 2_500, 'PAYMENT_TIMEOUT_MS'),
    paymentMaxAttempts: intFrom(env.PAYMENT_MAX_ATTEMPTS, 3, 'PAYMENT_MAX_ATTEMPTS'),
    ordersPageSize: intFrom(env.ORDERS_PAGE_SIZE, 20, 'ORDERS_PAGE_SIZE'),
    lowStockThreshold: intFrom(env.LOW_STOCK_THRESHOLD, 5, 'LOW_STOCK_THRESHOLD'),
  };
}
