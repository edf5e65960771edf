// Accounts: login, the register and forget-password steps, and whether a phone is free. The
// verification codes they ask for are `@/api/codes`.
import { queryOptions, useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { PhoneFree } from '@/api/types';
import { keys } from '@/lib/query-keys';

/** Account and password, or 短信验证码登录: a code of scene `login` sent to the phone (it never
 * waits for failed passwords, whoever failed them). */
export type Credentials = { username: string; password: string } | { phone: string; code: string };

export function useLogin() {
  return useMutation({ mutationFn: (credentials: Credentials) => api.post<unknown>('/api/user/login', credentials) });
}

/** Whether no account has this phone yet; asked afresh by every check of the field. */
export function phoneFreeQuery(phone: string) {
  return queryOptions({
    queryKey: keys.auth.phoneFree(phone),
    queryFn: async () => (await api.get<PhoneFree>(`/api/user/phone/${encodeURIComponent(phone)}`, { silent: true })).free,
    staleTime: 0,
    retry: false,
  });
}

/** A step of the registration (1 the phone's code, 2 the account, 3 the licences). */
export function useRegisterStep() {
  return useMutation({
    mutationFn: ({ step, fields }: { step: number; fields: Record<string, string | number | string[] | undefined> }) =>
      api.post<Record<string, unknown>>('/api/user/register', { step, ...fields }),
  });
}

/** A step of the forgotten password (1 the phone's code, 2 the new password). */
export function useForgetStep() {
  return useMutation({
    mutationFn: ({ step, fields }: { step: number; fields: Record<string, string | undefined> }) =>
      api.post<Record<string, unknown>>('/api/user/forget', { step, ...fields }),
  });
}
