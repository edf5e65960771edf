import { describe, expect, it } from 'vitest';
import { orderParams, returnForm, returnLines } from './api';

describe('the order list query', () => {
  it('sends only the filters set, the keyword trimmed', () => {
    expect(orderParams({ page: 1, status: -1, keyword: '  ' })).toEqual({ page: 1 });
    expect(orderParams({ page: 2, status: 0, keyword: ' 阿莫西林 ', start: 100, end: 200 })).toEqual({
      page: 2,
      status: 0,
      keyword: '阿莫西林',
      start_time: 100,
      end_time: 200,
    });
  });
});

describe('a return request', () => {
  it('names the chosen units line by line, leaving out lines with none', () => {
    expect(returnLines({ 12: 1, 13: 0, 14: 3 })).toBe('12:1,14:3');
    expect(returnLines({ 12: 0 })).toBe('');
    expect(returnLines({ 12: 2, 14: 1 }, { 12: 345 })).toBe('12:2:345,14:1');
  });

  it('carries the lines, reason, description, the refund shown and photos', () => {
    const photo = new File([new Uint8Array([0x89, 0x50])], 'box.png', { type: 'image/png' });
    const form = returnForm({ lines: '12:1', reason: 3, description: ' 破损 ', refund: '3.33', photos: [photo] });
    expect([form.get('lines'), form.get('reason'), form.get('description'), form.get('refund')]).toEqual(['12:1', '3', '破损', '3.33']);
    expect(form.getAll('photos')).toHaveLength(1);
  });
});
