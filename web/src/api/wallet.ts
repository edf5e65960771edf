// What the member's wallet holds (`user/user_money`): the wallet's pages and the payment page's
// balance read it.
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { keys } from '@/lib/query-keys';
import type { Wallet } from './types';

export function walletQuery() {
  return queryOptions({ queryKey: keys.wallet.money(), queryFn: () => api.get<Wallet>('/api/user/user_money') });
}
