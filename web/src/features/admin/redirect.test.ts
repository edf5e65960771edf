import { describe, expect, it } from 'vitest';
import { afterLogin } from './redirect';

describe('afterLogin', () => {
  it('goes back to the console address the operator was headed for', () => {
    expect(afterLogin('/admin/orders?status=1&number=2026112900000001')).toBe('/admin/orders?status=1&number=2026112900000001');
    expect(afterLogin('/admin')).toBe('/admin');
  });

  it('never leaves the console, nor loops on the login', () => {
    for (const bad of [
      null,
      '',
      'https://evil.example/admin',
      '//evil.example/admin',
      '/user',
      '/administrator',
      '/admin/login',
      '/admin/login?redirect=/admin',
    ]) {
      expect(afterLogin(bad)).toBe('/admin');
    }
  });
});
