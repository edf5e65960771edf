import { describe, expect, it } from 'vitest';
import { activityTap, parseIds } from './api';

describe('an activity link', () => {
  it('opens a running activity and tells why another does not open', () => {
    expect(activityTap({ url: 'winter', state: 'running', note: '' })).toEqual({ go: '/activity/winter' });
    expect(activityTap({ url: '', state: 'upcoming', note: '即将开始' })).toEqual({ say: '活动暂未开始' });
    expect(activityTap({ url: 'newyear', state: 'upcoming', note: '年货采购节将于10天后开启' })).toEqual({
      say: '年货采购节将于10天后开启',
    });
    expect(activityTap({ url: 'newyear', state: 'upcoming', note: '' })).toEqual({ say: '活动未开始' });
  });

  it('reads the activity centre ids', () => {
    expect(parseIds('3,5,3,x,0,8')).toEqual([3, 5, 8]);
    expect(parseIds(undefined)).toEqual([]);
  });
});
