import { describe, expect, it } from 'vitest';
import { certificateForm, scanProblem } from './api';

describe('a certificate upload', () => {
  it('sends the kind, the trimmed number, the expiry and the file', () => {
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], '营业执照.png', { type: 'image/png' });
    const form = certificateForm({ kind: '营业执照', number: ' 9133 ', expiresOn: '2030-01-31', file });
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
