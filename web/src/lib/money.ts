// Money as the shop shows it: the engine's exact decimal strings, never floats.

/** "¥12.30" — always two decimals. */
export function yuan(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '¥0.00';
  const text = String(value);
  const [whole, fraction = ''] = text.split('.');
  return `¥${whole}.${(fraction + '00').slice(0, 2)}`;
}

/** Whether a decimal string is above zero. */
export function positive(value: string | null | undefined): boolean {
  return !!value && /[1-9]/.test(value) && !value.trim().startsWith('-');
}
