// The account centre's reads and writes: addresses, stores, messages, certificates, WeChat, the
// agreement, the password and the contact. The addresses and the company are `@/api/account`
// (other pages read them too). A write refreshes nothing itself: the page runs `useRefresh`.
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type {
  AddressForm,
  AddressList,
  Agreement,
  Authorize,
  BindForm,
  BusinessScope,
  CertificateForm,
  Certificates,
  Done,
  MessagePage,
  PasswordForm,
  SignForm,
  StoreForm,
  StoreList,
  Unread,
  UserInfo,
  UserInfoForm,
  WechatState,
} from '@/api/types';
import { multipart, type MultipartFields, type QueryOf } from '@/api/requests';
import { keys } from '@/lib/query-keys';
import { isPhone } from '@/lib/engine';

/** A 电话 field (an address's, a store's): a mobile number or a landline, `0571-88886666` (§5);
 * empty is left to the field's own required rule. */
export const telephoneRule = {
  validator: async (_: unknown, value: string | undefined) => {
    if (value?.trim() && !isPhone(value.trim(), true)) throw new Error('联系电话格式不正确');
  },
};

export function storesQuery() {
  return queryOptions({ queryKey: keys.account.stores(), queryFn: () => api.get<StoreList>('/api/user/stores') });
}

/** 经营范围: the business scope approved with the member's licences. */
export function businessScopeQuery() {
  return queryOptions({ queryKey: keys.account.scope(), queryFn: () => api.get<BusinessScope>('/api/user/jyfw') });
}

export function certificatesQuery() {
  return queryOptions({ queryKey: keys.account.certificates(), queryFn: () => api.get<Certificates>('/api/user/zizhi') });
}

export function agreementQuery() {
  return queryOptions({ queryKey: keys.account.agreement(), queryFn: () => api.get<Agreement>('/api/user/agreement') });
}

export function wechatQuery() {
  return queryOptions({ queryKey: keys.account.wechat(), queryFn: () => api.get<WechatState>('/api/user/wechat') });
}

/** Messages: `kind` 0 all, 1 系统, 2 订单, 3 资产, 4 资质; `unread` only the unread. */
export function messagesQuery(page: number, kind: number, unread: boolean) {
  return queryOptions({
    queryKey: keys.account.messagesPage(page, kind, unread),
    queryFn: () =>
      api.get<MessagePage>('/api/user/message', {
        params: { page, kind: kind || undefined, unread: unread ? 1 : undefined } satisfies QueryOf<'/api/user/message'>,
      }),
    placeholderData: keepPreviousData,
  });
}

/** After a change: the account centre's reads, the user state (message count, name, WeChat),
 * and the checkout's address list. */
export function useRefresh() {
  const client = useQueryClient();
  return async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: keys.account.all }),
      client.invalidateQueries({ queryKey: keys.user.all }),
      client.invalidateQueries({ queryKey: keys.checkout.all }),
      client.invalidateQueries({ queryKey: keys.centre.all }),
    ]);
  };
}

/** Adds an address, or changes `id`'s. */
export function useSaveAddress() {
  return useMutation({
    mutationFn: ({ id, form }: { id?: number; form: AddressForm }) =>
      id ? api.put<AddressList>(`/api/user/address/${id}`, form) : api.post<AddressList>('/api/user/address', form),
  });
}

export function useSetDefaultAddress() {
  return useMutation({ mutationFn: (id: number) => api.post<unknown>(`/api/user/address/${id}/default`) });
}

export function useDeleteAddress() {
  return useMutation({ mutationFn: (id: number) => api.delete<unknown>(`/api/user/address/${id}`) });
}

/** Adds a store account, or changes `id`'s. */
export function useSaveStore() {
  return useMutation({
    mutationFn: ({ id, form }: { id?: number; form: StoreForm }) =>
      id ? api.put<StoreList>(`/api/user/stores/${id}`, form) : api.post<StoreList>('/api/user/stores', form),
  });
}

/** 切换为当前门店: the session goes on as that store account. */
export function useSwitchStore() {
  return useMutation({ mutationFn: (id: number) => api.post<unknown>(`/api/user/stores/${id}/switch`) });
}

export function useDeleteStore() {
  return useMutation({ mutationFn: (id: number) => api.delete<unknown>(`/api/user/stores/${id}`) });
}

export function useSignAgreement() {
  return useMutation({
    mutationFn: (form: SignForm) => api.post<Agreement>('/api/user/agreement/sign', form),
  });
}

export function useResetPassword() {
  return useMutation({ mutationFn: (form: PasswordForm) => api.post<Done>('/api/user/resetPassword', form) });
}

/** Uploads a certificate (its multipart form, `certificateForm`). */
export function useUploadCertificate() {
  return useMutation({ mutationFn: (form: FormData) => api.upload<Certificates>('/api/user/zizhi', form) });
}

/** The contact name and mobile; a new mobile with the current password and its code. */
export function useUpdateContact() {
  return useMutation({
    mutationFn: (form: UserInfoForm) => api.post<UserInfo>('/api/user/updateUserInfo', form),
  });
}

/** Marks a message read; answers how many are left unread. */
export function useReadMessage() {
  return useMutation({ mutationFn: (id: number) => api.post<Unread>(`/api/user/message/${id}/read`) });
}

export function useReadAllMessages() {
  return useMutation({ mutationFn: () => api.post<Unread>('/api/user/message/read_all') });
}

/** Binds the WeChat account the provider sent back (`code`, `state`); answers the new state. */
export function useBindWechat() {
  return useMutation({ mutationFn: (back: BindForm) => api.post<WechatState>('/api/user/wechat/bind', back) });
}

/** The provider's authorization address to go to. */
export function useAuthorizeWechat() {
  return useMutation({ mutationFn: () => api.post<Authorize>('/api/user/wechat/authorize') });
}

export function useUnbindWechat() {
  return useMutation({ mutationFn: () => api.delete<WechatState>('/api/user/unbind_wechat') });
}

/** A page of messages with one of them read at `at` (Unix seconds) and `unread` left: the
 * page keeps showing it (even under 只看未读) until the member turns the page. */
export function withRead(page: MessagePage, id: number, unread: number, at: number): MessagePage {
  return {
    ...page,
    unread,
    list: page.list.map((message) => (message.id === id && message.read_at === null ? { ...message, read_at: at } : message)),
  };
}

/** The multipart form of a certificate upload, the number trimmed (no expiry: empty). */
export function certificateForm(fields: MultipartFields<CertificateForm, 'file'>): FormData {
  return multipart<CertificateForm, 'file'>({
    ...fields,
    number: fields.number.trim(),
    valid_from: fields.valid_from ?? '',
    expires_on: fields.expires_on ?? '',
    scope: fields.scope?.trim() ?? '',
  });
}

/** Why a scan cannot be sent, before sending it (the origin checks again, by content). */
export function scanProblem(file: File, maxBytes: number): string | undefined {
  if (!/\.(jpe?g|png|pdf)$/i.test(file.name)) return '只能上传JPG、PNG或PDF文件';
  if (file.size > maxBytes) return `文件不能超过${Math.floor(maxBytes / 1024 / 1024)}MB`;
  return undefined;
}
