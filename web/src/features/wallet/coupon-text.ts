// How a coupon's value reads on its card.
import { positive } from '@/lib/money';

/** A 折扣券's rate as buyers read it: `0.95` is 9.5折, `0.9` is 9折 (its digits, not arithmetic). */
export function discountText(rate: string): string {
  const digits = (rate.split('.')[1] ?? '').replace(/0+$/, '');
  if (!digits) return rate === '1' || rate.startsWith('1.') ? '不打折' : '0折';
  return `${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}折`;
}

/** An amount as a threshold reads: `500.00` is `500`, `499.50` stays as it is. */
export function wholeAmount(amount: string): string {
  return amount.replace(/\.0+$/, '');
}

/** A coupon's or voucher's threshold: `满500可用`, or `无门槛` when there is none. */
export function thresholdText(min: string): string {
  return positive(min) ? `满${wholeAmount(min)}可用` : '无门槛';
}
