import { describe, expect, it } from 'vitest';
import { standingText } from './api';

describe('the controlled-sales standing', () => {
  it('says what the member may do in each status', () => {
    expect(standingText(-1, '')).toBe('控销品种仅限审核通过的会员采购，请先申请控销资格');
    expect(standingText(0, '')).toContain('审核中');
    expect(standingText(1, '')).toBe('您已获得控销品种采购资格');
    expect(standingText(2, '资质过期')).toBe('控销资格审核未通过：资质过期，可重新申请');
  });
});
