import { randomBytes } from 'node:crypto';
import { loadConfig } from './config.js';
import { createShopServer } from './http/server.js';
import { StockService } from './inventory/stock.js';
import { OrderRepository } from './orders/order-repository.js';
import { PaymentClient } from './payments/payment-client.js';
import { defaultRetryPolicy } from './payments/retry-policy.js';
import { createLogger } from './shared/logger.js';

const config = loadConfig();
const log = createLogger({ service: 'shop', level: process.env.LOG_LEVEL === 'debug' ? 'DEBUG' : 'INFO' });

const server = createShopServer(
  {
    payments: new PaymentClient({
      baseUrl: config.paymentGatewayUrl,
      timeoutMs: config.paymentTimeoutMs,
      retry: defaultRetryPolicy(config.paymentMaxAttempts),
      log: log.child({ component: 'payments' }),
    }),
    orders: new OrderRepository(),
    stock: new StockService(log.child({ component: 'inventory' }), config.lowStockThreshold),
    log,
    currency: config.currency,
    ordersPageSize: config.ordersPageSize,
    newOrderNumber: () => `SO-${randomBytes(4).toString('hex').toUpperCase()}`,
    now: () => new Date(),
  },
  log,
);

server.listen(config.port, () => log.info('shop listening', { port: config.port }));

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    log.info('shutting down', { signal });
    server.close(() => process.exit(0));
  });
}
