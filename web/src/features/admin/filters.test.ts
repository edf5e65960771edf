import { describe, expect, it } from 'vitest';
import { exportHref } from './filters';

describe('exportHref', () => {
  it("carries the list's filters but not its page", () => {
    expect(exportHref('/api/admin/orders/export', { status: '1', number: '2026', page: 3, member: '' })).toBe(
      '/api/admin/orders/export?status=1&number=2026',
    );
    expect(exportHref('/api/admin/members/export', { page: 2 })).toBe('/api/admin/members/export');
  });

  it('encodes what the operator typed', () => {
    expect(exportHref('/api/admin/members/export', { search: '华北 药房&1' })).toBe(
      '/api/admin/members/export?search=%E5%8D%8E%E5%8C%97+%E8%8D%AF%E6%88%BF%261',
    );
  });
});
