import { describe, expect, it } from 'vitest';
import { categoryLink, isYouxEntry, shopView } from './shop-view';

describe('the shop-type views', () => {
  it('knows the view of a path', () => {
    expect(shopView('/zyyp')).toBe('zy');
    expect(shopView('/qxzq')).toBe('qx');
    expect(shopView('/yx')).toBe('youx');
    expect(shopView('/yx/table')).toBe('youx');
    expect(shopView('/yxx')).toBe('general');
    expect(shopView('/')).toBe('general');
  });

  it('keeps category links in their shop', () => {
    expect(categoryLink(12, 'general')).toBe('/list?category=12');
    expect(categoryLink(12, 'zy')).toBe('/list?category=12&shop=zy');
  });

  it('finds the entries that lead to preferred goods', () => {
    expect(isYouxEntry('/yx')).toBe(true);
    expect(isYouxEntry('/list?shop=youx')).toBe(true);
    expect(isYouxEntry('/zyyp')).toBe(false);
  });
});
