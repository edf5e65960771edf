// Accounts: login, the register and forget-password steps, and whether a phone is free. The
// verification codes they ask for are `@/api/codes`.
import { queryOptions, useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { ForgetForm, LoginForm, PhoneFree, RegisterForm } from '@/api/types';
import { keys } from '@/lib/query-keys';

/** Logs in with account and password, or 短信验证码登录: a code of scene `login` sent to the
 * phone (it never waits for failed passwords, whoever failed them). */
export function useLogin() {
  return useMutation({ mutationFn: (credentials: LoginForm) => api.post<unknown>('/api/user/login', credentials) });
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

/** A step of the registration (1 the phone's code, 2 the account, 3 the licences). The store
 * names go as repeated keys (`stores[]`), since a name may hold a comma. */
export function useRegisterStep() {
  return useMutation({
    mutationFn: ({ stores, ...form }: RegisterForm) =>
      api.post<Record<string, unknown>>('/api/user/register', { ...form, 'stores[]': stores }),
  });
}

/** A step of the forgotten password (1 the phone's code, 2 the new password). */
export function useForgetStep() {
  return useMutation({ mutationFn: (form: ForgetForm) => api.post<Record<string, unknown>>('/api/user/forget', form) });
}
