// Money decisions with the real engine: compared exactly, never as JavaScript numbers.
import { describe, expect, it } from 'vitest';
import { compareMoney, ladderHint, LineType, manjianTitle, shippingHint, tierHint } from './engine';
import { canPay, isCheaper, positive, yuan } from './money';

// Beyond 2^53 a JavaScript number no longer tells these apart: Number(a) === Number(b).
const BIG = '9007199254740993';
const BIG_LESS = '9007199254740992';

describe('compareMoney', () => {
  it('compares decimal strings and numbers exactly', () => {
    expect(compareMoney('0.30', 0.3)).toBe(0);
    expect(compareMoney('10.001', '10')).toBe(1);
    expect(compareMoney('10', '10.001')).toBe(-1);
    expect(compareMoney('12.3', '12.30')).toBe(0);
    expect(Number(BIG)).toBe(Number(BIG_LESS));
    expect(compareMoney(BIG, BIG_LESS)).toBe(1);
    expect(compareMoney(`${BIG_LESS}.01`, BIG)).toBe(-1);
  });

  it('throws on what is not an amount', () => {
    expect(() => compareMoney('abc', '1')).toThrow();
    expect(() => compareMoney('1', '-1')).toThrow();
  });
});

describe('isCheaper: the list price is struck through only above the price', () => {
  it('decides exactly', () => {
    expect(isCheaper('9.90', '12.00')).toBe(true);
    expect(isCheaper('12.00', '12')).toBe(false);
    expect(isCheaper('0.30', 0.3)).toBe(false);
    expect(isCheaper('10', '10.001')).toBe(true);
    expect(isCheaper('10.001', '10')).toBe(false);
    expect(isCheaper(BIG_LESS, BIG)).toBe(true);
    expect(isCheaper(BIG, BIG_LESS)).toBe(false);
  });

  it('shows nothing struck through for a missing or unreadable list price', () => {
    expect(isCheaper('9.90', '')).toBe(false);
    expect(isCheaper('9.90', null)).toBe(false);
    expect(isCheaper('9.90', undefined)).toBe(false);
    expect(isCheaper('9.90', 'abc')).toBe(false);
  });
});

describe('canPay: the balance covers the payable', () => {
  it('decides exactly', () => {
    expect(canPay('100.00', '100')).toBe(true);
    expect(canPay('0.30', 0.3)).toBe(true);
    expect(canPay('10', '10.001')).toBe(false);
    expect(canPay('10.001', '10')).toBe(true);
    expect(canPay(BIG_LESS, BIG)).toBe(false);
    expect(canPay(BIG, BIG_LESS)).toBe(true);
    expect(canPay('0.00', '0.01')).toBe(false);
  });

  it('does not pay from a balance it cannot read', () => {
    expect(canPay(undefined, '1.00')).toBe(false);
    expect(canPay('abc', '1.00')).toBe(false);
    expect(canPay('5.00', '')).toBe(false);
  });
});

describe('positive', () => {
  it('is above zero, exactly', () => {
    expect(positive('0.01')).toBe(true);
    expect(positive('0.001')).toBe(true);
    expect(positive('0.00')).toBe(false);
    expect(positive('0')).toBe(false);
    expect(positive('-1.00')).toBe(false);
    expect(positive(null)).toBe(false);
    expect(positive('')).toBe(false);
  });
});

describe('yuan', () => {
  it('shows two decimals', () => {
    expect(yuan('12.3')).toBe('¥12.30');
    expect(yuan('11.609')).toBe('¥11.60');
    expect(yuan(null)).toBe('¥0.00');
  });
});

describe('the sentences the engine writes', () => {
  it('titles and hints', () => {
    expect(manjianTitle('500.00', '50.00')).toBe('满500减50');
    expect(manjianTitle('99.50', '0.5')).toBe('满99.5减0.5');
    expect(ladderHint(3, '盒', '11.609')).toBe('再买 3 盒 享 ¥11.60');
    expect(tierHint('80', '20.00')).toBe('再买 ¥80.00 可减 ¥20.00');
    expect(shippingHint('120.05')).toBe('还差 ¥120.05 免运费');
  });

  it('line types', () => {
    expect(LineType).toMatchObject({ Normal: 0, FlashSale: 1, Combination: 3 });
  });
});
