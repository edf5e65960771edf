// How a coupon's value reads on its card.

/** A 折扣券's rate as buyers read it: `0.95` is 9.5折, `0.9` is 9折 (its digits, not arithmetic). */
export function discountText(rate: string): string {
  const digits = (rate.split('.')[1] ?? '').replace(/0+$/, '');
  if (!digits) return rate === '1' || rate.startsWith('1.') ? '不打折' : '0折';
  return `${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}折`;
}
