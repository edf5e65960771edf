// The origin's refusals of a console form: a 422 with messages by field shows each on its field;
// any other refusal is the form's to show whole. `renamed` maps a call's field to the form's
// (the origin's `starts_at` and `ends_at` are one range picker, `period`).
import type { FormInstance } from 'antd';
import { ApiError } from '@/lib/api-client';

/** Whether `error` is a refusal by field. */
export function byField(error: unknown): error is ApiError {
  return error instanceof ApiError && Object.keys(error.fieldErrors).length > 0;
}

/** Puts a refusal by field on the form's fields; answers whether it was one. */
export function showOnFields<T>(form: FormInstance<T>, error: unknown, renamed: Record<string, string> = {}): boolean {
  if (!byField(error)) return false;
  form.setFields(Object.entries(error.fieldErrors).map(([name, errors]) => ({ name: (renamed[name] ?? name) as never, errors })));
  return true;
}

/** The message of a refusal that is not by field, for the form to show whole. */
export function wholeRefusal(error: unknown): string | null {
  return error instanceof Error && !byField(error) ? error.message : null;
}

/** The schedule's fields, shown on the form's range picker. */
export const PERIOD = { starts_at: 'period', ends_at: 'period' };
