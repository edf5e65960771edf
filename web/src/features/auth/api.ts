// Accounts: login, verification codes, the register and forget-password steps.
import { api } from '@/lib/api';
import { ApiError } from '@/lib/api-client';
import type { CodeSent, PhoneFree } from '@/api/types';

export type CodeScene = 'register' | 'forget' | 'login' | 'change_phone';

export function login(username: string, password: string) {
  return api.post<unknown>('/api/user/login', { username, password });
}

/** 短信验证码登录: a code of scene `login` sent to the phone; it never waits for failed passwords, whoever failed them. */
export function loginByCode(phone: string, code: string) {
  return api.post<unknown>('/api/user/login', { phone, code });
}

export function sendCode(phone: string, scene: CodeScene) {
  return api.post<CodeSent>('/api/user/create_code', { phone, scene });
}

export async function phoneIsFree(phone: string): Promise<boolean> {
  const answer = await api.get<PhoneFree>(`/api/user/phone/${encodeURIComponent(phone)}`, { silent: true });
  return answer.free;
}

export function register(step: number, fields: Record<string, string | number | string[] | undefined>) {
  return api.post<Record<string, unknown>>('/api/user/register', { step, ...fields });
}

export function forget(step: number, fields: Record<string, string | undefined>) {
  return api.post<Record<string, unknown>>('/api/user/forget', { step, ...fields });
}

/** Field errors of a 422, for the form that sent it. */
export function fieldErrors(error: unknown): { name: string; errors: string[] }[] {
  if (!(error instanceof ApiError) || error.kind !== 'invalid') return [];
  return Object.entries(error.fieldErrors).map(([name, errors]) => ({ name: name.replace(/\[\]$/, ''), errors }));
}
