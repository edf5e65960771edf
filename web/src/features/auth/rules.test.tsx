// The account rules of the registration and password forms: the engine's, so the browser
// refuses what the origin refuses, with the origin's words.
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { WithQueryClient } from '@/testing/query';
import { passwordProblem, usernameProblem } from './rules';
import { RegisterPage } from './components/register-page';
import { ForgetPage } from './components/forget-page';

describe('the username rule', () => {
  it('takes 4-20 letters, digits or underscores starting with a letter', () => {
    for (const good of ['abcd', 'a_1b', 'Zhang_San_2024', 'a2345678901234567890', '  demo  '])
      expect(usernameProblem(good), good).toBeUndefined();
  });

  it('refuses the rest with the origin message', () => {
    expect(usernameProblem('')).toBe('请填写用户名');
    expect(usernameProblem('   ')).toBe('请填写用户名');
    expect(usernameProblem(undefined)).toBe('请填写用户名');
    for (const bad of ['1abc', '_abc', 'abc', 'a23456789012345678901', 'ab-cd', 'ab cd', '张三abcd']) {
      expect(usernameProblem(bad), bad).toBe('用户名为4-20位字母、数字或下划线，以字母开头');
    }
  });
});

describe('the password rule', () => {
  it('takes 6-20 characters with letters and digits', () => {
    for (const good of ['demo123', 'secret99', 'a1b2c3', 'abcdefghij1234567890', 'P@ss w0rd'])
      expect(passwordProblem(good), good).toBeUndefined();
  });

  it('refuses the rest with the origin message', () => {
    expect(passwordProblem('')).toBe('请填写密码');
    expect(passwordProblem(null)).toBe('请填写密码');
    expect(passwordProblem('a1b2')).toBe('密码长度为6-20位');
    expect(passwordProblem('abcdefghij12345678901')).toBe('密码长度为6-20位');
    expect(passwordProblem('aaaaaa')).toBe('密码须同时包含字母和数字');
    expect(passwordProblem('123456')).toBe('密码须同时包含字母和数字');
  });
});

function renderAt(path: string, page: ReactNode) {
  return render(
    <WithQueryClient>
      <MemoryRouter initialEntries={[{ pathname: path, state: { phone: '13800138000', code: '123456' } }]}>{page}</MemoryRouter>
    </WithQueryClient>,
  );
}

describe('the forms', () => {
  it('registration step 2 refuses 1abc and aaaaaa as they are typed, with the origin messages', async () => {
    renderAt('/register/step2', <RegisterPage />);
    fireEvent.change(screen.getByLabelText('用户名'), { target: { value: '1abc' } });
    fireEvent.change(screen.getByLabelText('密码', { exact: true }), { target: { value: 'aaaaaa' } });
    expect(await screen.findByText('用户名为4-20位字母、数字或下划线，以字母开头')).toBeTruthy();
    expect(await screen.findByText('密码须同时包含字母和数字')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('用户名'), { target: { value: 'abcd1' } });
    fireEvent.change(screen.getByLabelText('密码', { exact: true }), { target: { value: 'abc' } });
    expect(await screen.findByText('密码长度为6-20位')).toBeTruthy();
    await expect.poll(() => screen.queryByText('用户名为4-20位字母、数字或下划线，以字母开头')).toBeNull();
  });

  it('registration step 2 asks for a username and a password when submitted empty', async () => {
    renderAt('/register/step2', <RegisterPage />);
    fireEvent.click(screen.getByRole('button', { name: '注册并下一步' }));
    expect(await screen.findByText('请填写用户名')).toBeTruthy();
    expect(await screen.findByText('请填写密码')).toBeTruthy();
  });

  it('the new password of a reset follows the same rule', async () => {
    renderAt('/forget/step2', <ForgetPage />);
    fireEvent.change(screen.getByLabelText('新密码', { exact: true }), { target: { value: '123456' } });
    expect(await screen.findByText('密码须同时包含字母和数字')).toBeTruthy();
  });
});
