// The cart view model with the real engine (pkg/, WebAssembly): edits re-price at once, and
// the server's list is checked against the browser's quote of the same lines.
import { describe, expect, it } from 'vitest';
import { LineType, quote } from '@/lib/engine';
import type { CartList, CartLine } from '@/api/cart';
import { cartLine as line } from '@/testing/cart';
import { CartModel, engineInput, priceReason } from './model';

function list(lines: CartLine[]): CartList {
  const shaped = {
    data: lines,
    shipping_data: { shipping_amount: '800.00', no_trans_order_amount: '0.00' },
    activity_data: {
      manjians: [
        { amount: '100.00', reduce: '10.00', title: '满100减10' },
        { amount: '300.00', reduce: '30.00', title: '满300减30' },
      ],
    },
  };
  return { ...shaped, quote: quote(engineInput(shaped)) };
}

const ladder = {
  ladder_price: [
    { number: 10, price: '9.00' },
    { number: 50, price: '8.00' },
  ],
  ladder_price_type: 2,
};

describe('CartModel', () => {
  it('re-prices a quantity change at once, ladder included', () => {
    // Both lines take part in the 满减 activity (rule 8 counts only its own lines).
    const inActivity = (cartLine: CartLine): CartLine => ({ ...cartLine, goods_manjian_id: 1 });
    const model = new CartModel(list([inActivity(line(1, 2, '10.00', ladder)), inActivity(line(2, 1, '5.50'))]));
    expect(model.quote.totals.total).toBe('25.50');
    const next = model.quote.lines.find((row) => row.id === 1)!.ladder.find((row) => !row.reached)!;
    expect(next).toMatchObject({ number: 10, need: 8 });
    model.setNumber(1, 10);
    expect(model.quote.lines.find((row) => row.id === 1)).toMatchObject({ unit_price: '9.00', amount: '90.00' });
    expect(model.quote.totals.total).toBe('95.50');
    expect(model.quote.manjian_tiers[0]).toMatchObject({ amount: '100.00', status: 0, need: '4.50' });
    model.setNumber(2, 2);
    expect(model.quote.totals.total).toBe('101.00');
    expect(model.quote.manjian_tiers[0]).toMatchObject({ status: 1 });
    // 满100减10 reached: rule 8 takes 10.00 off the activity's lines.
    expect(model.quote.totals.discount).toBe('10.00');
    expect(model.quote.totals.payable).toBe('91.00');
    expect(model.quote.shipping.need).toBe('699.00');
  });

  it('keeps quantities at least 1 and whole', () => {
    const model = new CartModel(list([line(1, 2, '10.00')]));
    expect(model.setNumber(1, 0)).toBe(1);
    expect(model.setNumber(1, 3.7)).toBe(3);
    expect(model.setNumber(1, Number.NaN)).toBe(1);
    expect(model.quote.totals.total).toBe('10.00');
  });

  it('selects, unselects and removes, and the totals follow', () => {
    const model = new CartModel(list([line(1, 1, '10.00'), line(2, 1, '20.00'), line(3, 1, '30.00')]));
    model.select([2, 3], false);
    expect(model.quote.totals.total).toBe('10.00');
    expect(model.selectedIds()).toEqual([1]);
    model.select([3], true);
    model.remove([1]);
    expect(model.lines.map((row) => row.id)).toEqual([2, 3]);
    expect(model.quote.totals.total).toBe('30.00');
    expect(model.quote.counts.items).toBe(2);
  });

  it('a line whose goods cannot be bought does not count', () => {
    const model = new CartModel(list([line(1, 1, '10.00'), line(2, 1, '20.00', { is_buy: 0 })]));
    expect(model.quote.totals.total).toBe('10.00');
    expect(model.selectedIds()).toEqual([1]);
  });

  it('agrees with a server quote of the same lines, and shows the server quote when it does not', () => {
    const model = new CartModel(list([line(1, 2, '10.00')]));
    model.setNumber(1, 5);
    const server = list([line(1, 5, '10.00')]);
    const fine = model.reconcile(server);
    expect(fine.agrees).toBe(true);
    expect(model.quote.totals.total).toBe('50.00');

    const tampered = list([line(1, 5, '10.00')]);
    tampered.quote = { ...tampered.quote, totals: { ...tampered.quote.totals, payable: '49.99' } };
    const wrong = model.reconcile(tampered);
    expect(wrong.agrees).toBe(false);
    expect(wrong.browser.totals.payable).toBe('50.00');
    expect(model.quote.totals.payable).toBe('49.99');
  });

  it('says why a line costs what it costs from the engine price_kind', () => {
    const flash = { ...line(2, 1, '6.00', ladder), type: LineType.FlashSale };
    const combination = {
      ...line(3, 1, '30.00'),
      type: LineType.Combination,
      combination: {
        id: 7,
        name: '组合',
        bzdw: '套',
        is_buy: 1,
        number: 20,
        type: 0,
        is_youx: 0,
        is_dpby: 0,
        ladder_price: [],
        image: '/api/images/combination/7.svg',
        items: [],
        contents: '',
      },
    };
    const model = new CartModel(list([line(1, 10, '10.00', ladder), flash, combination, line(4, 1, '5.00', ladder)]));
    const reasons = model.quote.lines.map((row) => [row.id, row.price_kind, priceReason(row.price_kind)]);
    expect(reasons).toEqual([
      [1, 'ladder', '阶梯价'],
      [2, 'flash_sale', '秒杀价'],
      [3, 'combination', '组合价'],
      [4, 'regular', null],
    ]);
    // A ladder entry reached at the very price the line was added at explains nothing: no label.
    const same = new CartModel(list([line(5, 10, '9.00', ladder)]));
    expect(same.quote.lines[0].price_kind).toBe('regular');
    expect(priceReason(same.quote.lines[0].price_kind)).toBe(null);
  });
});
