import { describe, expect, it } from 'vitest';
import { messageForm } from './files';

describe('a message with photos', () => {
  it('carries its text, photos and, for a new case, its kind', () => {
    const photo = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'box.jpg', { type: 'image/jpeg' });
    const form = messageForm(' 外包装破损 ', [photo], 1);
    expect(form.get('kind')).toBe('1');
    expect(form.get('body')).toBe('外包装破损');
    expect(form.getAll('photos')).toHaveLength(1);
    expect(messageForm('补充', []).has('kind')).toBe(false);
  });
});
