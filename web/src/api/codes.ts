// Verification codes sent by SMS (§4): registering, a forgotten password, logging in by code and
// changing the phone all ask for one the same way.
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { CodeForm, CodeSent } from './types';

export type CodeScene = 'register' | 'forget' | 'login' | 'change_phone';

/** Sends a code of `scene` to `phone`; answers the seconds before another may be sent. */
export function useSendCode() {
  return useMutation({
    mutationFn: (form: CodeForm & { scene: CodeScene }) => api.post<CodeSent>('/api/user/create_code', form),
  });
}
