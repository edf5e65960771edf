// Online payment: a payment's state, asked until it is settled one way or another.
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { PaymentState } from './types';
import { keys } from '@/lib/query-keys';

/** How often the page asks whether the provider confirmed the payment. */
export const POLL_MS = 2000;

/** Pending (0) is the only state that can still change. */
export function isSettled(state: PaymentState | undefined): boolean {
  return !!state && state.status !== 0;
}

/** A payment's state, asked every two seconds until it is settled. */
export function paymentStateQuery(paymentNo: string | undefined) {
  return queryOptions({
    queryKey: keys.payment.of(paymentNo),
    queryFn: () => api.get<PaymentState>(`/api/payment/${encodeURIComponent(paymentNo!)}`),
    enabled: !!paymentNo,
    refetchInterval: (query) => (isSettled(query.state.data) ? false : POLL_MS),
    refetchIntervalInBackground: true,
  });
}
