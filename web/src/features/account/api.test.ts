import { describe, expect, it } from 'vitest';
import type { Message } from '@/api/types';
import { certificateForm, scanProblem, telephoneRule, withRead } from './api';

describe('a certificate upload', () => {
  it('sends the kind, the trimmed number, the expiry and the file', () => {
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], '营业执照.png', { type: 'image/png' });
    const form = certificateForm({ kind: '营业执照', number: ' 9133 ', expires_on: '2030-01-31', file });
    expect(form.get('kind')).toBe('营业执照');
    expect(form.get('number')).toBe('9133');
    expect(form.get('expires_on')).toBe('2030-01-31');
    expect((form.get('file') as File).name).toBe('营业执照.png');
    expect(certificateForm({ kind: '其他', number: '1', file }).get('expires_on')).toBe('');
  });

  it('is stopped before sending when its name or size cannot pass', () => {
    const max = 5 * 1024 * 1024;
    expect(scanProblem(new File(['x'], 'a.PNG'), max)).toBeUndefined();
    expect(scanProblem(new File(['x'], 'a.gif'), max)).toBe('只能上传JPG、PNG或PDF文件');
    expect(scanProblem(new File([new Uint8Array(max + 1)], 'a.pdf'), max)).toBe('文件不能超过5MB');
  });
});

describe('a message opened', () => {
  const message = (id: number, read_at: number | null): Message => ({
    id,
    kind: 1,
    kind_name: '系统消息',
    title: `消息${id}`,
    body: '',
    created_at: 1_700_000_000,
    read_at,
  });

  it('stays on the page, read, and the unread count follows the server', () => {
    const page = { list: [message(1, null), message(2, null), message(3, 1_700_000_100)], page: 1, total: 3, unread: 2 };
    const after = withRead(page, 2, 1, 1_700_000_200);
    expect(after.list.map((item) => item.read_at)).toEqual([null, 1_700_000_200, 1_700_000_100]);
    expect(after.unread).toBe(1);
    expect(after.total).toBe(3);
    expect(page.list[1].read_at).toBeNull();
  });

  it('keeps the time an already read message was read', () => {
    const page = { list: [message(3, 1_700_000_100)], page: 1, total: 1, unread: 0 };
    expect(withRead(page, 3, 0, 1_700_000_200).list[0].read_at).toBe(1_700_000_100);
  });
});

describe('a 电话 field', () => {
  it('takes a mobile number or a landline with its area code', async () => {
    for (const phone of ['13812345678', '0571-88886666', '010-1234567', ' 0755-12345678 ', '', undefined]) {
      await expect(telephoneRule.validator(null, phone)).resolves.toBeUndefined();
    }
    for (const phone of ['123', '0571 88886666', '571-88886666', '05712-8888666', '0571-123456', '12812345678']) {
      await expect(telephoneRule.validator(null, phone)).rejects.toThrow('联系电话格式不正确');
    }
  });
});
