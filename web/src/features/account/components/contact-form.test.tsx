// 联系人信息: the name alone is saved as it is; a new mobile asks for the current password and the
// new mobile's code, sends both, and shows the origin's refusal of a wrong password on its field.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { UiHost } from '@/components/ui-host';
import { api } from '@/lib/api';
import { ApiError } from '@/lib/api-client';
import { WithQueryClient } from '@/testing/query';
import { ContactForm } from './contact-form';

vi.mock('@/lib/api', () => ({ api: { post: vi.fn(), get: vi.fn() } }));

const post = vi.mocked(api.post);

function renderForm(onSaved = vi.fn(() => Promise.resolve())) {
  render(
    <UiHost>
      <WithQueryClient>
        <ContactForm name="张三" phone="13800138000" onSaved={onSaved} />
      </WithQueryClient>
    </UiHost>,
  );
  return onSaved;
}

const save = () => fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));

describe('the contact form', () => {
  beforeEach(() => {
    post.mockReset();
    post.mockResolvedValue({ name: '张三', phone: '13800138000' });
  });

  it('saves a new name without a password or a code', async () => {
    const onSaved = renderForm();
    fireEvent.change(screen.getByLabelText('联系人'), { target: { value: '李四' } });
    expect(screen.queryByLabelText('登录密码')).toBeNull();
    save();
    await waitFor(() => expect(post).toHaveBeenCalledWith('/api/user/updateUserInfo', { name: '李四', phone: '13800138000' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
  });

  it('asks for the current password and the new phone’s code before moving the phone', async () => {
    renderForm();
    fireEvent.change(screen.getByLabelText('手机号码'), { target: { value: '13955556666' } });
    const password = await screen.findByLabelText('登录密码');
    expect(screen.getByPlaceholderText('发送到新手机号的验证码')).toBeTruthy();
    save();
    expect(await screen.findByText('请填写登录密码')).toBeTruthy();
    expect(await screen.findByText('请填写验证码')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(password, { target: { value: 'demo123' } });
    fireEvent.change(screen.getByPlaceholderText('发送到新手机号的验证码'), { target: { value: '123456' } });
    save();
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('/api/user/updateUserInfo', {
        name: '张三',
        phone: '13955556666',
        password: 'demo123',
        code: '123456',
      }),
    );
  });

  it('shows a wrong password on its field', async () => {
    post.mockRejectedValue(
      new ApiError('invalid', '登录密码不正确', 422, {
        code: 422,
        msg: '登录密码不正确',
        data: { errors: { password: ['登录密码不正确'] } },
      }),
    );
    renderForm();
    fireEvent.change(screen.getByLabelText('手机号码'), { target: { value: '13955556666' } });
    fireEvent.change(await screen.findByLabelText('登录密码'), { target: { value: 'guess123' } });
    fireEvent.change(screen.getByPlaceholderText('发送到新手机号的验证码'), { target: { value: '123456' } });
    save();
    expect(await screen.findByText('登录密码不正确')).toBeTruthy();
  });
});
