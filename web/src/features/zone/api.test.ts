import { describe, expect, it } from 'vitest';
import { pageFromPath } from './api';

describe('a zone page', () => {
  it('reads its page from the path', () => {
    expect(pageFromPath(undefined)).toBe(1);
    expect(pageFromPath('3')).toBe(3);
    expect(pageFromPath('0')).toBe(1);
    expect(pageFromPath('x')).toBe(1);
  });
});
