import { describe, expect, it } from 'vitest';
import { helpArticleId } from './api';

const groups = [
  {
    name: '新手指南',
    list: [
      { id: 66, title: '会员注册', path: '/help/xrzn/hyzc' },
      { id: 67, title: '购物指南', path: '/help/xrzn/gwzn' },
    ],
  },
  { name: '支付与配送', list: [{ id: 72, title: '订单支付', path: '/help/zfps/ddzf' }] },
];

describe('a help page', () => {
  it('shows the article ?id= names, else the one of its path', () => {
    expect(helpArticleId(groups, '/help/xrzn/hyzc', '66')).toBe(66);
    expect(helpArticleId(groups, '/help/xrzn/hyzc', '67')).toBe(67);
    expect(helpArticleId(groups, '/help/xrzn/gwzn', null)).toBe(67);
    expect(helpArticleId(groups, '/help/zfps/ddzf', 'x')).toBe(72);
    expect(helpArticleId(groups, '/help/nowhere', null)).toBeUndefined();
    expect(helpArticleId(undefined, '/help/xrzn/gwzn', null)).toBeUndefined();
  });
});
