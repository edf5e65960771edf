// A 422's field errors (docs/api.md, "The web client's error catalogue"), for the form that sent it.
import { ApiError } from './api-client';

/** Field errors of a 422, for the form that sent it (`name[]` fields named as the form names them). */
export function fieldErrors(error: unknown): { name: string; errors: string[] }[] {
  if (!(error instanceof ApiError) || error.kind !== 'invalid') return [];
  return Object.entries(error.fieldErrors).map(([name, errors]) => ({ name: name.replace(/\[\]$/, ''), errors }));
}
