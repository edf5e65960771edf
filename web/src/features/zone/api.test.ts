import { describe, expect, it } from 'vitest';
import { pageFromPath, zoneParams } from './api';

describe('a zone list', () => {
  it('keeps the zone filter and adds only the sort the buyer chose', () => {
    expect(zoneParams({ shop: 'zy' }, 'default', '', 1)).toEqual({ shop: 'zy', page: 1, page_size: 20 });
    expect(zoneParams({ near_expiry: 1 }, 'expiry', 'asc', 2)).toEqual({
      near_expiry: 1,
      page: 2,
      page_size: 20,
      sort: 'expiry',
      order: 'asc',
    });
  });

  it('reads its page from the path', () => {
    expect(pageFromPath(undefined)).toBe(1);
    expect(pageFromPath('3')).toBe(3);
    expect(pageFromPath('0')).toBe(1);
    expect(pageFromPath('x')).toBe(1);
  });
});
