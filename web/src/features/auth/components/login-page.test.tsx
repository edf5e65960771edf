// The login page: the password by default, and 短信验证码登录 (phone and code) on its second tab.
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { api } from '@/lib/api';
import { WithQueryClient } from '@/testing/query';
import { LoginPage } from './login-page';

// Ant Design's tabs measure themselves; jsdom has no ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

vi.mock('@/lib/api', () => ({ api: { post: vi.fn(() => Promise.resolve({})), get: vi.fn() } }));
const post = vi.mocked(api.post);

function renderLogin() {
  return render(
    <WithQueryClient>
      <MemoryRouter initialEntries={['/login']}>
        <LoginPage />
      </MemoryRouter>
    </WithQueryClient>,
  );
}

describe('the login page', () => {
  it('asks for the account and password first', () => {
    renderLogin();
    expect(screen.getByLabelText('账号')).toBeTruthy();
    expect(screen.getByRole('tab', { name: '短信验证码登录' })).toBeTruthy();
  });

  it('signs in with a phone and an SMS code on its second tab', async () => {
    renderLogin();
    fireEvent.click(screen.getByRole('tab', { name: '短信验证码登录' }));
    const phone = await screen.findByLabelText('手机号码');
    fireEvent.change(phone, { target: { value: ' 13800138000 ' } });
    fireEvent.change(screen.getByPlaceholderText('6位验证码'), { target: { value: '123456' } });
    fireEvent.submit(phone.closest('form')!);
    await waitFor(() => expect(post).toHaveBeenCalledWith('/api/user/login', { phone: '13800138000', code: '123456' }));
    expect(post).toHaveBeenCalledTimes(1);
  });

  it('refuses a phone that is not a mobile number before asking the origin', async () => {
    renderLogin();
    fireEvent.click(screen.getByRole('tab', { name: '短信验证码登录' }));
    const phone = await screen.findByLabelText('手机号码');
    fireEvent.change(phone, { target: { value: '12345' } });
    fireEvent.change(screen.getByPlaceholderText('6位验证码'), { target: { value: '123456' } });
    fireEvent.submit(phone.closest('form')!);
    expect(await screen.findByText('手机号码格式不正确')).toBeTruthy();
    expect(post).not.toHaveBeenCalledWith('/api/user/login', { phone: '12345', code: '123456' });
  });
});
