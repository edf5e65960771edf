// The order's Idempotency-Key: kept for a retry of the same attempt, fresh after a refusal.
import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { ApiError } from '@/lib/api-client';
import { keyAfterFailure, refusesAttempt, useOrderKey } from './order-key';

const refusal = (status: number, code = status) =>
  new ApiError(status === 422 ? 'invalid' : 'refused', '商品价格已变动，请刷新购物车后重试', status, { code, msg: '', data: null });

describe('the order key', () => {
  it('is fresh after any 4xx refusal, and after the agreement (459)', () => {
    for (const status of [400, 403, 404, 409, 422, 429]) {
      expect(refusesAttempt(refusal(status)), String(status)).toBe(true);
      expect(keyAfterFailure('old', refusal(status), () => 'new')).toBe('new');
    }
    const agreement = new ApiError('agreement', '请先签署电子合同', 200, { code: 459, msg: '请先签署电子合同', data: null });
    expect(keyAfterFailure('old', agreement, () => 'new')).toBe('new');
  });

  it('is kept after a fault, a timeout, a cancelled call or anything else', () => {
    const kept = [
      new ApiError('busy', '系统繁忙，请稍候再试', 500),
      new ApiError('busy', '系统繁忙，请稍候再试', 502),
      new ApiError('busy', '系统繁忙，请稍候再试'),
      new ApiError('timeout', '请求超时，请刷新页面'),
      new ApiError('cancelled', 'superseded'),
      new Error('boom'),
      undefined,
    ];
    for (const error of kept) expect(keyAfterFailure('old', error, () => 'new')).toBe('old');
  });

  it('changes in the page after a refusal only', () => {
    let made = 0;
    const fresh = () => `key-${++made}`;
    const { result } = renderHook(() => useOrderKey(fresh));
    expect(result.current.key).toBe('key-1');
    act(() => result.current.failed(new ApiError('busy', '系统繁忙，请稍候再试', 500)));
    expect(result.current.key).toBe('key-1');
    act(() => result.current.failed(refusal(422)));
    expect(result.current.key).toBe('key-2');
    act(() => result.current.failed(refusal(403)));
    expect(result.current.key).toBe('key-3');
  });
});
