import { describe, expect, it } from 'vitest';
import { logParams } from './api';
import { discountLabel } from '@/lib/engine';

describe('a log page query', () => {
  it('leaves out the filters not set', () => {
    expect(logParams({ page: 1, useType: 0 })).toEqual({ page: 1 });
  });

  it('sends the direction and the days, both included', () => {
    expect(logParams({ page: 3, useType: 2, start: '2026-11-01', end: '2026-11-03' })).toEqual({
      page: 3,
      use_type: 2,
      start_time: '2026-11-01',
      end_time: '2026-11-03',
    });
  });
});

describe('a log date range', () => {
  it('is the days picked, whatever the time of day', async () => {
    const dayjs = (await import('dayjs')).default;
    const { dateRange } = await import('@/lib/time');
    expect(dateRange([dayjs('2026-11-01T23:30:00'), dayjs('2026-11-03T00:10:00')])).toEqual({ start: '2026-11-01', end: '2026-11-03' });
    expect(dateRange([null, dayjs('2026-11-03T08:00:00')])).toEqual({ start: undefined, end: '2026-11-03' });
    expect(dateRange(null)).toEqual({});
  });
});

describe('a discount coupon', () => {
  it("reads its rate in tenths of the price, the engine's label", () => {
    expect(discountLabel('0.95')).toBe('9.5折');
    expect(discountLabel('0.9')).toBe('9折');
    expect(discountLabel('0.88')).toBe('8.8折');
    expect(discountLabel('0.90')).toBe('9折');
  });
});

describe('a date range filter', () => {
  it('runs from the first second of its first day to the last of its last', async () => {
    const dayjs = (await import('dayjs')).default;
    const { dayRange } = await import('@/lib/time');
    const from = dayjs('2026-11-01T15:30:00');
    const to = dayjs('2026-11-03T08:00:00');
    expect(dayRange([from, to])).toEqual({ start: dayjs('2026-11-01T00:00:00').unix(), end: dayjs('2026-11-03T23:59:59').unix() });
    expect(dayRange([from, null])).toEqual({ start: dayjs('2026-11-01T00:00:00').unix(), end: undefined });
    expect(dayRange(null)).toEqual({});
  });
});
