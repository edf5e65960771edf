import { describe, expect, it } from 'vitest';
import { CLAIM_STATES, claimedPercent, mallParams, redeemable } from './api';
import { DRAW_DELAY, NO_DRAW_ROUTES, drawMessage } from './draw';

describe('the coupon centre', () => {
  it('shows how much of a template is gone, in whole percent, never past 100', () => {
    expect(claimedPercent(0, 300)).toBe(0);
    expect(claimedPercent(1, 3)).toBe(33);
    expect(claimedPercent(10, 10)).toBe(100);
    expect(claimedPercent(12, 10)).toBe(100);
    expect(claimedPercent(0, 0)).toBe(100);
  });

  it('lets a member press only 立即领取', () => {
    expect(CLAIM_STATES.claim).toEqual({ label: '立即领取', enabled: true });
    expect(CLAIM_STATES.claimed.enabled).toBe(false);
    expect(CLAIM_STATES.gone.label).toBe('已抢光');
  });
});

describe('the points mall query', () => {
  it('sends only the filters set', () => {
    expect(mallParams({ page: 1, kind: 0, sort: '' })).toEqual({ page: 1 });
    expect(mallParams({ page: 2, kind: 3, sort: 'points_asc' })).toEqual({ page: 2, kind: 3, sort: 'points_asc' });
  });
});

describe('what a member may redeem', () => {
  it('is the least of the stock, the rest of their limit and 99', () => {
    expect(redeemable({ stock: 200, per_member: 0, mine: 0 })).toBe(99);
    expect(redeemable({ stock: 3, per_member: 0, mine: 0 })).toBe(3);
    expect(redeemable({ stock: 50, per_member: 2, mine: 1 })).toBe(1);
    expect(redeemable({ stock: 50, per_member: 1, mine: 1 })).toBe(0);
    expect(redeemable({ stock: 0, per_member: 0, mine: 0 })).toBe(0);
  });
});

describe('the lucky draw', () => {
  it('words the result as §8 says', () => {
    expect(drawMessage({ name: '200积分', remarks: '积分已到账' })).toBe('恭喜您 , 抽中200积分 ( 积分已到账 )');
  });

  it('is never asked for on the routes §4 lists, and waits 2 s', () => {
    for (const route of ['activity_lq', 'activity_gq', 'activity_yhhg', 'eleven_gq', 'eleven_big', 'eleven_big_app', 'live']) {
      expect(NO_DRAW_ROUTES.has(route)).toBe(true);
    }
    expect(NO_DRAW_ROUTES.has('index')).toBe(false);
    expect(DRAW_DELAY).toBe(2000);
  });
});
