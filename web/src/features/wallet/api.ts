// The wallet's reads and its one write: each account's movements, the coupons and cash vouchers,
// the recharge tiers and a recharge. What the wallet holds is `@/api/wallet`.
import { keepPreviousData, queryOptions, useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { CouponCount, CouponPage, LogPage, MoneyConfig, PaymentStarted, RechargeForm, VoucherPage } from '@/api/types';
import type { QueryOf } from '@/api/requests';
import { keys } from '@/lib/query-keys';

/** The wallet's accounts with a log: their log call. */
export const LOGS = {
  balance: '/api/user/user_money_log',
  red_packet: '/api/user/red_packet_log',
  points: '/api/user/points_log',
} as const;

export type LogAccount = keyof typeof LOGS;

/** A log's filters as the page holds them; the days are `YYYY-MM-DD`, both included. */
export interface LogFilter {
  page: number;
  useType: 0 | 1 | 2;
  start?: string;
  end?: string;
}

/** A log call's query (the three logs read the same one). */
export type LogQuery = QueryOf<(typeof LOGS)[LogAccount]>;

/** The query string of a log page: absent filters are left out. */
export function logParams(filter: LogFilter): LogQuery {
  const params: LogQuery = { page: filter.page };
  if (filter.useType) params.use_type = filter.useType;
  if (filter.start !== undefined) params.start_time = filter.start;
  if (filter.end !== undefined) params.end_time = filter.end;
  return params;
}

export function logQuery(account: LogAccount, filter: LogFilter) {
  return queryOptions({
    queryKey: keys.wallet.log(account, filter),
    queryFn: () => api.get<LogPage>(LOGS[account], { params: logParams(filter) }),
    placeholderData: keepPreviousData,
  });
}

export function couponCountQuery() {
  return queryOptions({ queryKey: keys.wallet.couponCount(), queryFn: () => api.get<CouponCount>('/api/user/couponNum') });
}

/** Coupons by `status` (0 未使用, 1 已使用, 2 已过期) and `kind` (0 all, 1 满减, 2 折扣). */
export function couponsQuery(status: number, kind: number, page: number) {
  return queryOptions({
    queryKey: keys.wallet.coupons(status, kind, page),
    queryFn: () =>
      api.get<CouponPage>('/api/user/coupon', { params: { status, type: kind || undefined, page } satisfies QueryOf<'/api/user/coupon'> }),
    placeholderData: keepPreviousData,
  });
}

export function vouchersQuery(status: number, page: number) {
  return queryOptions({
    queryKey: keys.wallet.vouchers(status, page),
    queryFn: () => api.get<VoucherPage>('/api/user/cash_voucher', { params: { status, page } satisfies QueryOf<'/api/user/cash_voucher'> }),
    placeholderData: keepPreviousData,
  });
}

/** The recharge tiers (pay 1,000 get 20). */
export function moneyConfigQuery() {
  return queryOptions({ queryKey: keys.wallet.moneyConfig(), queryFn: () => api.get<MoneyConfig>('/api/moneys/moneyConfig') });
}

/** Starts a recharge of a tier or of an amount, paid online; the wallet is read again only once
 * the provider confirmed it (the page waits for that). */
export function useStartRecharge() {
  return useMutation({
    mutationFn: (form: RechargeForm) => api.post<PaymentStarted>('/api/cash_coupon/userRecharge', form),
  });
}
