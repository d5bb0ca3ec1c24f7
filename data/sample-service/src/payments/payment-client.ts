import { randomUUID } from 'node:crypto';
import { addLogContext, type Logger } from '../shared/logger.js';
import type { Cents } from '../shared/money.js';
import { withRetry, type RetryPolicy } from './retry-policy.js';

export interface AuthorizeRequest {
  orderNumber: string;
  amount: Cents;
  currency: string;
  paymentToken: string;
}

export type AuthorizationStatus = 'approved' | 'declined' | 'review';

export interface Authorization {
  txnId: string;
  status: AuthorizationStatus;
  authorizationId: string | null;
  declineReason?: string;
}

/** Gateway API v2 response body for POST /v2/authorizations. */
interface GatewayAuthorization {
  status: AuthorizationStatus;
  authorization: { authorizationId: string; expiresAt: string };
  decline?: { reason: string; advice?: string };
}

export class PaymentGatewayError extends Error {
  readonly code = 'PAYMENT_GATEWAY_ERROR';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'PaymentGatewayError';
  }
}

export interface PaymentClientOptions {
  baseUrl: string;
  timeoutMs: number;
  retry: RetryPolicy;
  log: Logger;
  fetch?: typeof fetch;
}

export function toAuthorization(txnId: string, body: GatewayAuthorization): Authorization {
  return {
    txnId,
    status: body.status,
    authorizationId: body.authorization.authorizationId,
    declineReason: body.decline?.reason,
  };
}

export class PaymentClient {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: PaymentClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  /** One transaction id per order attempt, reused across retries so the gateway can deduplicate. */
  async authorize(request: AuthorizeRequest): Promise<Authorization> {
    const txnId = `txn_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    addLogContext({ txn_id: txnId });
    const log = this.options.log.child({ txn_id: txnId, orderNumber: request.orderNumber });
    log.info('authorizing payment', { amount: request.amount, currency: request.currency });
    const result = await withRetry(
      this.options.retry,
      (attempt) => this.requestAuthorization(request, txnId, attempt),
      (err, attempt, delayMs) => log.warn('payment gateway call failed, retrying', { attempt, delayMs, reason: String(err) }),
    );
    log.info('payment authorization finished', { status: result.status, authorizationId: result.authorizationId ?? undefined });
    return result;
  }

  private async requestAuthorization(request: AuthorizeRequest, txnId: string, attempt: number): Promise<Authorization> {
    const response = await this.fetch(new URL('/v2/authorizations', this.options.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': txnId, 'x-attempt': String(attempt) },
      body: JSON.stringify({
        reference: request.orderNumber,
        amount: { value: request.amount, currency: request.currency },
        paymentToken: request.paymentToken,
      }),
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    if (!response.ok) {
      throw new PaymentGatewayError(response.status, `payment gateway answered ${response.status}`);
    }
    return toAuthorization(txnId, (await response.json()) as GatewayAuthorization);
  }
}
