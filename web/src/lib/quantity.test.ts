import { describe, expect, it } from 'vitest';
import { stepped } from './quantity';

describe('stepped', () => {
  it('goes to the next or the previous whole middle pack', () => {
    expect(stepped(10, 10, true)).toBe(20);
    expect(stepped(13, 10, true)).toBe(20);
    expect(stepped(13, 10, false)).toBe(10);
    expect(stepped(20, 10, false)).toBe(10);
  });

  it('never goes below 1 nor above the most that can be bought', () => {
    expect(stepped(10, 10, false)).toBe(1);
    expect(stepped(1, 10, false)).toBe(1);
    expect(stepped(95, 10, true, 96)).toBe(96);
  });

  it('steps by one without a middle pack', () => {
    expect(stepped(3, 1, true)).toBe(4);
    expect(stepped(3, 0, false)).toBe(2);
  });
});
