import { describe, expect, it } from 'vitest';
import { zoneParams } from './goods';

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
});
