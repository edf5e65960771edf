// 快速采购's several lines into the cart: one after another until one is refused, those added
// staying, and the cart's views asked again once afterwards.
import { describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api } from '@/lib/api';
import { ApiError } from '@/lib/api-client';
import { keys } from '@/lib/query-keys';
import { useAddLines } from './cart';

vi.mock('@/lib/api', () => ({ api: { post: vi.fn(), get: vi.fn(), tell: vi.fn() } }));
const post = vi.mocked(api.post);

function withClient() {
  const client = new QueryClient();
  const invalidate = vi.spyOn(client, 'invalidateQueries');
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return { wrapper, invalidate };
}

describe('adding several lines', () => {
  it('stops at the first refusal, keeps what went in, and refreshes the cart once', async () => {
    post.mockReset();
    post.mockResolvedValueOnce({ id: 1 }).mockRejectedValueOnce(new ApiError('refused', '库存不足', 200));
    const { wrapper, invalidate } = withClient();
    const { result } = renderHook(() => useAddLines(), { wrapper });
    let added = -1;
    await act(async () => {
      added = await result.current.mutateAsync([
        { goods_id: 1, number: 2 },
        { goods_id: 2, number: 1 },
        { goods_id: 3, number: 1 },
      ]);
    });
    expect(added).toBe(1);
    expect(post).toHaveBeenCalledTimes(2);
    expect(api.tell).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: keys.cart.all });
  });

  it('adds every line when none is refused', async () => {
    post.mockReset();
    post.mockResolvedValue({ id: 1 });
    const { wrapper } = withClient();
    const { result } = renderHook(() => useAddLines(), { wrapper });
    let added = -1;
    await act(async () => {
      added = await result.current.mutateAsync([
        { goods_id: 1, number: 1 },
        { goods_id: 2, number: 1 },
      ]);
    });
    expect(added).toBe(2);
  });
});
