import { describe, expect, it } from 'vitest';
import { chosenLines } from './api';

describe('quick purchase', () => {
  it('adds each chosen goods at the quantity typed, one at least', () => {
    expect(chosenLines([3, 5, 8], { 3: 4, 5: 0 })).toEqual([
      { goods_id: 3, number: 4 },
      { goods_id: 5, number: 1 },
      { goods_id: 8, number: 1 },
    ]);
  });
});
