// The member's account resources that other pages than the account centre read: the delivery
// addresses (the points mall sends goods to one) and the company with its store accounts (the
// cart copies lines between them).
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { keys } from '@/lib/query-keys';
import type { AddressList, Company } from './types';

export function addressesQuery() {
  return queryOptions({ queryKey: keys.account.addresses(), queryFn: () => api.get<AddressList>('/api/user/address') });
}

/** The member's company: its 企业编码 and its store accounts. */
export function companyQuery() {
  return queryOptions({ queryKey: keys.account.company(), queryFn: () => api.get<Company>('/api/user/company') });
}
