// An action on an order (confirm receipt, cancel) answers the order as it now is: the order's
// page shows that answer at once and does not ask for the order again, while the order centre,
// the member centre and the cart are read again.
import { describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api } from '@/lib/api';
import { keys } from '@/lib/query-keys';
import type { OrderDetail } from './types';
import { useBuyAgain, useCancelOrder, useReceiveOrder } from './orders';

vi.mock('@/lib/api', () => ({ api: { post: vi.fn(), get: vi.fn(), tell: vi.fn() } }));
const post = vi.mocked(api.post);

const order = (status: string) => ({ id: 7, status_text: status }) as unknown as OrderDetail;

/** A client on which the order's page (its detail) and the order list are being shown. */
function shown() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(keys.orders.detail(7), order('待收货'));
  client.setQueryData(keys.orders.list({ page: 1 }), { data: [] });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return { client, wrapper };
}

describe('an action on an order', () => {
  it.each([
    ['confirm receipt', useReceiveOrder, '/api/order/7/receive', '已完成'],
    ['cancel', useCancelOrder, '/api/order/7/cancel', '已取消'],
  ] as const)('%s: the answer is the order shown, the order not asked for again', async (_name, hook, path, status) => {
    post.mockReset().mockResolvedValueOnce(order(status));
    const { client, wrapper } = shown();
    const { result } = renderHook(() => hook(), { wrapper });
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    await act(async () => {
      await result.current.mutateAsync(7);
    });
    expect(post).toHaveBeenCalledWith(path);
    expect(client.getQueryData<OrderDetail>(keys.orders.detail(7))).toMatchObject({ status_text: status });
    expect(client.getQueryCache().find({ queryKey: keys.orders.detail(7) })?.state.isInvalidated).toBe(false);
    expect(client.getQueryCache().find({ queryKey: keys.orders.list({ page: 1 }) })?.state.isInvalidated).toBe(true);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: keys.centre.all });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: keys.cart.all });
  });

  it('buy again answers no order: every order query is read again', async () => {
    post.mockReset().mockResolvedValueOnce({ added: 1, skipped: [], notes: [], cart: 1 });
    const { client, wrapper } = shown();
    const { result } = renderHook(() => useBuyAgain(), { wrapper });
    await act(async () => {
      await result.current.mutateAsync(7);
    });
    expect(client.getQueryCache().find({ queryKey: keys.orders.detail(7) })?.state.isInvalidated).toBe(true);
    expect(client.getQueryData<OrderDetail>(keys.orders.detail(7))).toMatchObject({ status_text: '待收货' });
  });
});
