// Prints the quote of a small demo cart, computed by the built engine package (pkg/).
import { quoteCart, CartSession } from '../../pkg/engine.js';

const cart = {
  items: [
    {
      id: 1,
      number: 12,
      price: '18.50',
      is_selected: 1,
      with_coupon: 1,
      goods_manjian_id: 3,
      goods_manjian_amount: '10.00',
      goods: {
        id: 101,
        name: '阿莫西林胶囊 0.25g*24粒',
        bzdw: '盒',
        is_buy: 1,
        number: 800,
        base_price: '21.00',
        ladder_price: [
          { number: 10, price: '17.80' },
          { number: 50, price: '16.90' },
        ],
        ladder_price_type: 2,
      },
    },
    {
      id: 2,
      type: 1,
      number: 3,
      price: 9.9,
      is_selected: 1,
      with_coupon: 0,
      goods: { id: 102, name: '板蓝根颗粒 10g*20袋', bzdw: '盒', is_buy: 1, number: 40, base_price: 15 },
    },
    {
      id: 3,
      number: 5,
      price: '32.00',
      is_selected: 1,
      with_coupon: 1,
      goods: { id: 103, name: '当归 500g', bzdw: '袋', type: 2, is_buy: 1, number: 60, is_dpby: 1, qg_number: 10 },
    },
    {
      id: 4,
      number: 2,
      price: '45.00',
      is_selected: 1,
      goods: { id: 104, name: '医用外科口罩 50只', bzdw: '盒', type: 3, is_buy: 0, number: 0 },
    },
  ],
  shipping_data: { shipping_amount: '800', no_trans_order_amount: '0' },
  activity_data: {
    manjians: [
      { amount: '200', reduce: '10', title: '满200减10' },
      { amount: '500', reduce: '30', title: '满500减30' },
    ],
  },
};

const quote = quoteCart(cart);
for (const [i, line] of quote.lines.entries()) {
  const goods = cart.items[i].goods;
  console.log(
    `  ${goods.name.padEnd(22)} ×${String(cart.items[i].number).padStart(3)}  单价 ¥${line.unit_price.padStart(6)}  小计 ¥${line.amount.padStart(8)}${line.buyable ? '' : '  (不可购买)'}`,
  );
}
const t = quote.totals;
console.log(`  商品合计 ¥${t.total}  满减优惠 ¥${t.discount}  应付 ¥${t.payable}`);
for (const tier of quote.manjian_tiers) {
  console.log(`  满${tier.amount}减${tier.reduce}: ${tier.status ? '已达成' : `还差 ¥${tier.need}`}`);
}
console.log(`  ${quote.shipping.free_shipping ? '已包邮' : `还差 ¥${quote.shipping.need} 免运费`}`);

const session = new CartSession(cart);
session.setNumber(1, 50);
console.log(`  改为 50 盒后: 商品合计 ¥${session.totals().totals.total}`);
