// The wallet's reads: what it holds, each account's movements, the coupons and cash vouchers.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { CouponCount, CouponPage, LogPage, VoucherPage, Wallet } from '@/api/types';
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

/** The query string of a log page: absent filters are left out. */
export function logParams(filter: LogFilter): Record<string, number | string> {
  const params: Record<string, number | string> = { page: filter.page };
  if (filter.useType) params.use_type = filter.useType;
  if (filter.start !== undefined) params.start_time = filter.start;
  if (filter.end !== undefined) params.end_time = filter.end;
  return params;
}

export function useWallet() {
  return useQuery({ queryKey: keys.wallet.money(), queryFn: () => api.get<Wallet>('/api/user/user_money') });
}

export function useLog(account: LogAccount, filter: LogFilter) {
  return useQuery({
    queryKey: keys.wallet.log(account, filter),
    queryFn: () => api.get<LogPage>(LOGS[account], { params: logParams(filter) }),
    placeholderData: keepPreviousData,
  });
}

export function useCouponCount() {
  return useQuery({ queryKey: keys.wallet.couponCount(), queryFn: () => api.get<CouponCount>('/api/user/couponNum') });
}

/** Coupons by `status` (0 未使用, 1 已使用, 2 已过期) and `kind` (0 all, 1 满减, 2 折扣). */
export function useCoupons(status: number, kind: number, page: number) {
  return useQuery({
    queryKey: keys.wallet.coupons(status, kind, page),
    queryFn: () => api.get<CouponPage>('/api/user/coupon', { params: { status, type: kind || undefined, page } }),
    placeholderData: keepPreviousData,
  });
}

export function useVouchers(status: number, page: number) {
  return useQuery({
    queryKey: keys.wallet.vouchers(status, page),
    queryFn: () => api.get<VoucherPage>('/api/user/cash_voucher', { params: { status, page } }),
    placeholderData: keepPreviousData,
  });
}
