// The account centre's reads and writes: addresses, stores, messages, certificates, WeChat.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { AddressList, Agreement, BusinessScope, Certificates, Company, MessagePage, StoreList, WechatState } from '@/api/types';
import { keys } from '@/lib/query-keys';
import { isPhone } from '@/lib/engine';

/** A 电话 field (an address's, a store's): a mobile number or a landline, `0571-88886666` (§5);
 * empty is left to the field's own required rule. */
export const telephoneRule = {
  validator: async (_: unknown, value: string | undefined) => {
    if (value?.trim() && !isPhone(value.trim(), true)) throw new Error('联系电话格式不正确');
  },
};

export function useAddresses() {
  return useQuery({ queryKey: keys.account.addresses(), queryFn: () => api.get<AddressList>('/api/user/address') });
}

export function useStores() {
  return useQuery({ queryKey: keys.account.stores(), queryFn: () => api.get<StoreList>('/api/user/stores') });
}

/** The member's company: its 企业编码 and its store accounts (the cart copies between them). */
export function useCompany(enabled = true) {
  return useQuery({ queryKey: keys.account.company(), queryFn: () => api.get<Company>('/api/user/company'), enabled });
}

/** 经营范围: the business scope approved with the member's licences. */
export function useBusinessScope() {
  return useQuery({ queryKey: keys.account.scope(), queryFn: () => api.get<BusinessScope>('/api/user/jyfw') });
}

export function useCertificates() {
  return useQuery({ queryKey: keys.account.certificates(), queryFn: () => api.get<Certificates>('/api/user/zizhi') });
}

export function useAgreement() {
  return useQuery({ queryKey: keys.account.agreement(), queryFn: () => api.get<Agreement>('/api/user/agreement') });
}

export function useWechat() {
  return useQuery({ queryKey: keys.account.wechat(), queryFn: () => api.get<WechatState>('/api/user/wechat') });
}

/** Messages: `kind` 0 all, 1 系统, 2 订单, 3 资产, 4 资质; `unread` only the unread. */
export function useMessages(page: number, kind: number, unread: boolean) {
  return useQuery({
    queryKey: keys.account.messagesPage(page, kind, unread),
    queryFn: () => api.get<MessagePage>('/api/user/message', { params: { page, kind: kind || undefined, unread: unread ? 1 : undefined } }),
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

/** A page of messages with one of them read at `at` (Unix seconds) and `unread` left: the
 * page keeps showing it (even under 只看未读) until the member turns the page. */
export function withRead(page: MessagePage, id: number, unread: number, at: number): MessagePage {
  return {
    ...page,
    unread,
    list: page.list.map((message) => (message.id === id && message.read_at === null ? { ...message, read_at: at } : message)),
  };
}

/** The multipart form of a certificate upload. */
export function certificateForm(fields: { kind: string; number: string; expiresOn?: string; file: File }): FormData {
  const form = new FormData();
  form.append('kind', fields.kind);
  form.append('number', fields.number.trim());
  form.append('expires_on', fields.expiresOn ?? '');
  form.append('file', fields.file, fields.file.name);
  return form;
}

/** Why a scan cannot be sent, before sending it (the origin checks again, by content). */
export function scanProblem(file: File, maxBytes: number): string | undefined {
  if (!/\.(jpe?g|png|pdf)$/i.test(file.name)) return '只能上传JPG、PNG或PDF文件';
  if (file.size > maxBytes) return `文件不能超过${Math.floor(maxBytes / 1024 / 1024)}MB`;
  return undefined;
}
