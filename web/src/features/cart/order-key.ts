// The `Idempotency-Key` of an order (docs/api.md, "Orders and Idempotency-Key"). One key per
// attempt: a retry of the same attempt (a double click, a lost answer, a fault, a timeout) sends
// it again, so that the origin answers the order it already made instead of making a second. A
// refusal ends the attempt: the origin keeps a 4xx under its key and would answer it again, so
// the buyer who fixes the cart and submits again sends a fresh key. A fresh key cannot order the
// same lines twice: an order takes its lines out of the cart.
import { useCallback, useState } from 'react';
import { ApiError } from '@/lib/api-client';

/** A new key. */
export function newOrderKey(): string {
  return crypto.randomUUID();
}

/**
 * Whether a failed order was refused (HTTP 4xx, or the agreement's 459 in an HTTP 200), which
 * ends the attempt; faults, timeouts and cancelled calls do not: their retry keeps the key.
 */
export function refusesAttempt(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return (error.status >= 400 && error.status < 500) || error.kind === 'agreement';
}

/** The key for the next submit after `error`. */
export function keyAfterFailure(key: string, error: unknown, fresh: () => string = newOrderKey): string {
  return refusesAttempt(error) ? fresh() : key;
}

/** The checkout page's key, and what to call when placing the order failed. */
export function useOrderKey(fresh: () => string = newOrderKey) {
  const [key, setKey] = useState(fresh);
  const failed = useCallback(
    (error: unknown) => {
      if (refusesAttempt(error)) setKey(fresh());
    },
    [fresh],
  );
  return { key, failed };
}
