// The console's calls (`/api/admin/*`, docs/backoffice.md): its own API client, whose notifier
// sends an operator without a session to the console's login (never the shop's), and the
// queries and writes of each screen. Types come from the origin's OpenAPI document.
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createApiClient, type Notifier, type Params, BUSY_MESSAGE, TIMEOUT_MESSAGE } from '@/lib/api-client';
import type { components } from '@/api/types';

type Schemas = components['schemas'];
export type OperatorMe = Schemas['OperatorMe'];
export type Operator = Schemas['Operator'];
export type Permission = Schemas['Permission'];
export type Role = Schemas['Role'];
export type Dashboard = Schemas['Dashboard'];
export type OrderRow = Schemas['OrderRow'];
export type AdminOrder = Schemas['AdminOrder'];
export type InvoiceRow = Schemas['InvoiceRow'];
export type AuditRow = Schemas['AuditRow'];
export type OperatorAdded = Schemas['OperatorAdded'];
export type ShipOutcome = Schemas['ShipOutcome'];
export type ReturnListRow = Schemas['ReturnListRow'];
export type ReturnMoved = Schemas['ReturnMoved'];
export type CaseRow = Schemas['CaseRow'];
export type MemberRow = Schemas['MemberRow'];
export type MemberPage = Schemas['MemberPage'];
export type CertificateRow = Schemas['CertificateRow'];
export type GrantTemplates = Schemas['GrantTemplates'];
export type BalanceRequest = Schemas['BalanceRequest'];
export type Given = Schemas['Given'];
export type FeedbackRow = Schemas['FeedbackRow'];
export type WantedRow = Schemas['WantedRow'];
export type PointsOrderRow = Schemas['PointsOrderRow'];
export type CaseThread = Schemas['CaseThread'];
export type Settings = Schemas['Settings'];
export type Changed = Schemas['Changed'];
export type Welfare = Schemas['WelfareRow'];
export type StockGoods = Schemas['StockGoods'];
export type GoodsLots = Schemas['GoodsLots'];
export type ArticleRow = Schemas['ArticleRow'];
export type AdminArticle = Schemas['EditedArticle'];
export type Blocks = Schemas['Blocks'];
export type GoodsRow = Schemas['GoodsRow'];
export type GoodsRecord = Schemas['GoodsRecord'];
export type GoodsFormSpec = Schemas['GoodsFormSpec'];
export type GoodsFieldSpec = Schemas['FieldSpec'];
export type GoodsChanged = Schemas['GoodsChanged'];
export type ImportReport = Schemas['ImportReport'];
export type GoodsPicture = Schemas['Picture'];
export type ManjianRow = Schemas['ActivityRow'];
export type ManjianRecord = Schemas['ActivityRecord'];
export type ManjianPreview = Schemas['ManjianPreview'];
export type FlashRow = Schemas['FlashRow'];
export type TemplateRow = Schemas['TemplateRow'];
export type SetRow = Schemas['SetRow'];
export type SetPreview = Schemas['SetPreview'];
export type CashbackRow = Schemas['CashbackRow'];
export type CashbackSample = Schemas['CashbackSample'];
export type SpecialRow = Schemas['SpecialRow'];
export type PointsGoodsRow = Schemas['PointsGoodsRow'];
export type DrawRow = Schemas['DrawRow'];
export type ActivityPageRow = Schemas['ActivityPageRow'];
export type PrizeChance = Schemas['PrizeChance'];
export type TemplatePreviewRow = Schemas['TemplatePreviewRow'];
export type FlashPreview = Schemas['FlashPreview'];
/** A content block's kind, as its calls name it. */
export type BlockKind = 'ad' | 'nav' | 'hot_term' | 'link';

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  size: number;
}

/** What the console does with a failure: handed over by the console once it has mounted. */
interface ConsoleUi {
  toLogin: () => void;
  error: (message: string) => void;
}

let ui: ConsoleUi | null = null;

export function connectConsole(next: ConsoleUi | null): void {
  ui = next;
}

const consoleNotifier: Notifier = {
  login: () => ui?.toLogin(),
  agreement: (message) => ui?.error(message),
  invalid: (message) => ui?.error(message),
  alert: (message) => ui?.error(message),
  busy: () => ui?.error(BUSY_MESSAGE),
  timeout: () => ui?.error(TIMEOUT_MESSAGE),
};

export const adminApi = createApiClient({ notifier: consoleNotifier });

export const ROLE_NAMES: Record<Role, string> = {
  super: '超级管理员',
  operations: '运营',
  warehouse: '仓库',
  service: '客服',
  finance: '财务',
  readonly: '只读',
};

export const ORDER_STATUS = ['待付款', '待发货', '待收货', '已完成', '已取消'] as const;

const keys = {
  all: ['admin'] as const,
  me: ['admin', 'me'] as const,
  dashboard: ['admin', 'dashboard'] as const,
  orders: (params: Params) => ['admin', 'orders', params] as const,
  order: (reference: string) => ['admin', 'order', reference] as const,
  invoices: (params: Params) => ['admin', 'invoices', params] as const,
  operators: ['admin', 'operators'] as const,
  returns: (params: Params) => ['admin', 'returns', params] as const,
  members: (params: Params) => ['admin', 'members', params] as const,
  member: (id: number) => ['admin', 'member', id] as const,
  templates: ['admin', 'templates'] as const,
  balanceRequests: (pending: boolean) => ['admin', 'balance-requests', pending] as const,
  cases: (params: Params) => ['admin', 'cases', params] as const,
  case: (id: number) => ['admin', 'case', id] as const,
  audit: (params: Params) => ['admin', 'audit', params] as const,
};

/** The signed-in operator; `null` without a session (asked silently: the gate shows the login). */
export function meQuery() {
  return queryOptions({
    queryKey: keys.me,
    queryFn: () => adminApi.get<OperatorMe>('/api/admin/me', { silent: true }).catch(() => null),
    staleTime: 60_000,
  });
}

export function useMe() {
  return useQuery(meQuery());
}

export function can(me: OperatorMe | null | undefined, permission: Permission): boolean {
  return !!me && me.permissions.includes(permission);
}

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (form: { username: string; password: string; code?: string }) =>
      adminApi.post<OperatorMe>('/api/admin/login', form, { silent: true }),
    onSuccess: (me) => {
      client.removeQueries({ queryKey: keys.all });
      client.setQueryData(keys.me, me);
    },
  });
}

/** Signs out; `forget` then drops what the console read (after the caller has left the page). */
export function useLogout() {
  const client = useQueryClient();
  const mutation = useMutation({ mutationFn: () => adminApi.delete<null>('/api/admin/logout') });
  const forget = () => {
    client.removeQueries({ queryKey: keys.all });
    client.setQueryData(keys.me, null);
  };
  return { ...mutation, forget };
}

export function useDashboard() {
  return useQuery({ queryKey: keys.dashboard, queryFn: () => adminApi.get<Dashboard>('/api/admin/dashboard'), staleTime: 10_000 });
}

export function useOrders(params: Params) {
  return useQuery({
    queryKey: keys.orders(params),
    queryFn: () => adminApi.get<Page<OrderRow>>('/api/admin/orders', { params }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useOrder(reference: string) {
  return useQuery({
    queryKey: keys.order(reference),
    queryFn: () => adminApi.get<AdminOrder>(`/api/admin/orders/${encodeURIComponent(reference)}`),
    staleTime: 0,
  });
}

/** After a write, every list and figure may have moved: read them again. */
function useRefresh() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ predicate: (query) => query.queryKey[0] === 'admin' && query.queryKey[1] !== 'me' });
}

export function useShip(reference: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (form: { carrier: string; tracking: string; lines: string }) =>
      adminApi.post<ShipOutcome>(`/api/admin/orders/${encodeURIComponent(reference)}/ship`, form),
    onSuccess: refresh,
  });
}

export function useLogistics(reference: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (form: { shipment: number; place: string; description: string }) =>
      adminApi.post<{ order_no: string }>(`/api/admin/orders/${encodeURIComponent(reference)}/logistics`, form),
    onSuccess: refresh,
  });
}

export function useCancel(reference: string) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (reason: string) =>
      adminApi.post<{ order_no: string }>(`/api/admin/orders/${encodeURIComponent(reference)}/cancel`, { reason }),
    onSuccess: refresh,
  });
}

export function useInvoices(params: Params) {
  return useQuery({
    queryKey: keys.invoices(params),
    queryFn: () => adminApi.get<Page<InvoiceRow>>('/api/admin/invoices', { params }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useIssueInvoice() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => adminApi.post<Schemas['InvoiceIssued']>(`/api/admin/invoices/${id}/issue`),
    onSuccess: refresh,
  });
}

export function useReverseInvoice() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) =>
      adminApi.post<Schemas['InvoiceReversed']>(`/api/admin/invoices/${id}/reverse`, { reason }),
    onSuccess: refresh,
  });
}

export function useOperators() {
  return useQuery({ queryKey: keys.operators, queryFn: () => adminApi.get<Operator[]>('/api/admin/operators'), staleTime: 0 });
}

export function useAddOperator() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (form: { username: string; name: string; role: Role; password: string }) =>
      adminApi.post<OperatorAdded>('/api/admin/operators', form),
    onSuccess: refresh,
  });
}

export function useChangeOperator() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, ...form }: { id: number; role?: Role; disabled?: boolean; password?: string; name?: string }) =>
      adminApi.put<OperatorAdded>(`/api/admin/operators/${id}`, form),
    onSuccess: refresh,
  });
}

export function useAudit(params: Params) {
  return useQuery({
    queryKey: keys.audit(params),
    queryFn: () => adminApi.get<Page<AuditRow>>('/api/admin/audit', { params }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export const RETURN_STATUS = ['待审核', '待退货', '已拒绝', '已退款', '已撤销'] as const;
export const RETURN_REASONS: Record<number, string> = {
  1: '质量问题',
  2: '发错货',
  3: '商品破损',
  4: '效期问题',
  5: '不想要了',
  6: '其他',
};
export const CASE_KINDS: Record<number, string> = { 1: '质量问题', 2: '配送问题', 3: '其他' };

export function useReturns(params: Params) {
  return useQuery({
    queryKey: keys.returns(params),
    queryFn: () => adminApi.get<Page<ReturnListRow>>('/api/admin/returns', { params }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** Approves (`note`: where to send the goods), rejects (`note`: why) or receives a return. */
export function useReturnStep() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, step, note }: { id: number; step: 'approve' | 'reject' | 'receive'; note?: string }) =>
      adminApi.post<ReturnMoved>(`/api/admin/returns/${id}/${step}`, note === undefined ? undefined : { note }),
    onSuccess: refresh,
  });
}

export function useCases(params: Params) {
  return useQuery({
    queryKey: keys.cases(params),
    queryFn: () => adminApi.get<Page<CaseRow>>('/api/admin/after-sales', { params }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useCase(id: number | null) {
  return useQuery({
    queryKey: keys.case(id ?? 0),
    queryFn: () => adminApi.get<CaseThread>(`/api/admin/after-sales/${id}`),
    enabled: id !== null,
    staleTime: 0,
  });
}

export function useAnswerCase() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, body, resolve }: { id: number; body: string; resolve: boolean }) =>
      adminApi.post<{ case_no: string }>(`/api/admin/after-sales/${id}/answer`, { body, resolve }),
    onSuccess: refresh,
  });
}

export const BUYER_TYPES: Record<number, string> = { 1: '单体药店', 2: '连锁药店', 3: '诊所', 4: '医院/卫生院', 5: '批发企业' };
export const REVIEW_STATUS = ['待审核', '已通过', '未通过'] as const;

export function useMembers(params: Params) {
  return useQuery({
    queryKey: keys.members(params),
    queryFn: () => adminApi.get<Page<MemberRow>>('/api/admin/members', { params }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export function useMember(id: number) {
  return useQuery({ queryKey: keys.member(id), queryFn: () => adminApi.get<MemberPage>(`/api/admin/members/${id}`), staleTime: 0 });
}

/** Approves a certificate with the member's business scope (class names), or rejects it with a reason. */
export function useReviewCertificate() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, approve, scope, reason }: { id: number; approve: boolean; scope?: string[]; reason?: string }) =>
      approve
        ? adminApi.post<Schemas['CertificateReviewed']>(`/api/admin/certificates/${id}/approve`, { scope: scope?.join('、') ?? '' })
        : adminApi.post<Schemas['CertificateReviewed']>(`/api/admin/certificates/${id}/reject`, { reason }),
    onSuccess: refresh,
  });
}

export function useReviewControlledSales(member: number) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ approve, reason }: { approve: boolean; reason?: string }) =>
      adminApi.post<{ status: number }>(`/api/admin/members/${member}/controlled-sales`, { approve, reason }),
    onSuccess: refresh,
  });
}

export function useGrantTemplates() {
  return useQuery({
    queryKey: keys.templates,
    queryFn: () => adminApi.get<GrantTemplates>('/api/admin/grant-templates'),
    staleTime: 60_000,
  });
}

export type GiftForm =
  | { kind: 'coupon' | 'voucher'; template: number; count: number; reason: string }
  | { kind: 'red_packet'; amount: string; reason: string }
  | { kind: 'points'; points: number; reason: string }
  | { kind: 'balance'; amount: string; reason: string };

/** Gives a member something; a balance grant above the set amount answers the request it made. */
export function useGive(member: number) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (form: GiftForm) =>
      form.kind === 'balance'
        ? adminApi.post<Given>(`/api/admin/members/${member}/grants/balance`, { amount: form.amount, reason: form.reason })
        : adminApi.post<Given>(`/api/admin/members/${member}/grants/benefits`, form),
    onSuccess: refresh,
  });
}

export function useBalanceRequests(pending: boolean) {
  return useQuery({
    queryKey: keys.balanceRequests(pending),
    queryFn: () => adminApi.get<BalanceRequest[]>('/api/admin/balance-requests', { params: { pending: pending ? 1 : undefined } }),
    staleTime: 0,
  });
}

export function useDecideBalance() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, approve }: { id: number; approve: boolean }) =>
      adminApi.post<Given>(`/api/admin/balance-requests/${id}/decide`, { approve }),
    onSuccess: refresh,
  });
}

export function useFeedback(open: boolean) {
  return useQuery({
    queryKey: ['admin', 'feedback', open],
    queryFn: () => adminApi.get<FeedbackRow[]>('/api/admin/feedback', { params: { open: open ? 1 : undefined } }),
    staleTime: 0,
  });
}

export function useWanted(open: boolean) {
  return useQuery({
    queryKey: ['admin', 'wanted', open],
    queryFn: () => adminApi.get<WantedRow[]>('/api/admin/wanted', { params: { open: open ? 1 : undefined } }),
    staleTime: 0,
  });
}

/** Replies to feedback, or answers a wanted variety (`status` 1 已上架, 2 暂无货源). */
export function useReply() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ what, id, reply, status }: { what: 'feedback' | 'wanted'; id: number; reply: string; status?: number }) =>
      what === 'feedback'
        ? adminApi.post<{ id: number }>(`/api/admin/feedback/${id}/reply`, { reply })
        : adminApi.post<{ id: number }>(`/api/admin/wanted/${id}/answer`, { reply, status }),
    onSuccess: refresh,
  });
}

export function usePointsOrders(pending: boolean) {
  return useQuery({
    queryKey: ['admin', 'points-orders', pending],
    queryFn: () => adminApi.get<PointsOrderRow[]>('/api/admin/points-orders', { params: { pending: pending ? 1 : undefined } }),
    staleTime: 0,
  });
}

export function useShipPoints() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, carrier, tracking }: { id: number; carrier: string; tracking: string }) =>
      adminApi.post<{ id: number }>(`/api/admin/points-orders/${id}/ship`, { carrier, tracking }),
    onSuccess: refresh,
  });
}

export function useSettings() {
  return useQuery({ queryKey: ['admin', 'settings'], queryFn: () => adminApi.get<Settings>('/api/admin/settings'), staleTime: 0 });
}

/** Changes the shop's identity (the fields given) or who sees prices. */
export function useChangeSettings() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (fields: Record<string, string>) => adminApi.put<Changed[]>('/api/admin/settings', fields),
    onSuccess: refresh,
  });
}

export function useSetPrices() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (isPublic: boolean) =>
      adminApi.put<{ prices_public: boolean; changed: boolean }>('/api/admin/settings/prices', { public: isPublic ? 1 : 0 }),
    onSuccess: refresh,
  });
}

export function useWelfare() {
  return useQuery({ queryKey: ['admin', 'welfare'], queryFn: () => adminApi.get<Welfare[]>('/api/admin/welfare'), staleTime: 0 });
}

export function useStartWelfare() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (form: { title: string; rate: string; days: number }) => adminApi.post<{ id: number }>('/api/admin/welfare', form),
    onSuccess: refresh,
  });
}

export function useEndWelfare() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: () => adminApi.post<{ ended: number }>('/api/admin/welfare/end'), onSuccess: refresh });
}

export function useStockGoods(keyword: string) {
  return useQuery({
    queryKey: ['admin', 'stock-goods', keyword],
    queryFn: () => adminApi.get<StockGoods[]>('/api/admin/stock/goods', { params: { keyword } }),
    enabled: keyword !== '',
    staleTime: 0,
  });
}

export function useGoodsLots(goods: number | null) {
  return useQuery({
    queryKey: ['admin', 'goods-lots', goods],
    queryFn: () => adminApi.get<GoodsLots>(`/api/admin/goods/${goods}/lots`),
    enabled: goods !== null,
    staleTime: 0,
  });
}

/** Receives a lot (its fields, and the inspection report when chosen). */
export function useReceiveLot(goods: number) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (form: FormData) => adminApi.upload<{ id: number }>(`/api/admin/goods/${goods}/lots`, form),
    onSuccess: refresh,
  });
}

export function useKeepReport() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ lot, form }: { lot: number; form: FormData }) => adminApi.upload<{ id: number }>(`/api/admin/lots/${lot}/report`, form),
    onSuccess: refresh,
  });
}

export function useArticles(kind: string) {
  return useQuery({
    queryKey: ['admin', 'articles', kind],
    queryFn: () => adminApi.get<ArticleRow[]>('/api/admin/articles', { params: { kind: kind || undefined } }),
    staleTime: 0,
  });
}

export function useArticle(id: number | null) {
  return useQuery({
    queryKey: ['admin', 'article', id],
    queryFn: () => adminApi.get<AdminArticle>(`/api/admin/articles/${id}`),
    enabled: id !== null,
    staleTime: 0,
  });
}

/** Publishes a new article (`id` null) or saves one. */
export function useSaveArticle() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, form }: { id: number | null; form: Record<string, string> }) =>
      id === null
        ? adminApi.post<{ id: number }>('/api/admin/articles', form)
        : adminApi.put<{ id: number }>(`/api/admin/articles/${id}`, form),
    onSuccess: refresh,
  });
}

/** The body as the shop will show it (the server renders it, placeholders filled). */
export function previewArticle(body: string): Promise<{ html: string }> {
  return adminApi.post<{ html: string }>('/api/admin/articles/preview', { body }, { silent: true });
}

export function useBlocks() {
  return useQuery({ queryKey: ['admin', 'blocks'], queryFn: () => adminApi.get<Blocks>('/api/admin/blocks'), staleTime: 0 });
}

/** Adds a block (`id` null), changes one, or deletes one (`remove`). */
export function useSaveBlock() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({
      kind,
      id,
      form,
      remove,
    }: {
      kind: BlockKind;
      id: number | null;
      form?: Record<string, string | number>;
      remove?: boolean;
    }) =>
      remove && id !== null
        ? adminApi.delete<{ id: number }>(`/api/admin/blocks/${kind}/${id}`)
        : id === null
          ? adminApi.post<{ id: number }>(`/api/admin/blocks/${kind}`, form)
          : adminApi.put<{ id: number }>(`/api/admin/blocks/${kind}/${id}`, form),
    onSuccess: refresh,
  });
}

export function useGoodsList(params: Params) {
  return useQuery({
    queryKey: ['admin', 'goods', 'list', params],
    queryFn: () => adminApi.get<Page<GoodsRow>>('/api/admin/goods', { params }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/**
 * The goods a picker offers for the text typed now. Unlike the list page, it shows nothing of an
 * earlier search while this one loads (`goods-choices.ts` says why).
 */
export function useGoodsLookup(search: string) {
  return useQuery({
    queryKey: ['admin', 'goods', 'list', { search, size: 20, page: 1 }],
    queryFn: () => adminApi.get<Page<GoodsRow>>('/api/admin/goods', { params: { search, size: 20, page: 1 } }),
    staleTime: 0,
  });
}

export function useGoodsFormSpec() {
  return useQuery({
    queryKey: ['admin', 'goods', 'fields'],
    queryFn: () => adminApi.get<GoodsFormSpec>('/api/admin/goods/fields'),
    staleTime: 60_000,
  });
}

export function useGoodsRecord(id: number | null) {
  return useQuery({
    queryKey: ['admin', 'goods', 'record', id],
    queryFn: () => adminApi.get<GoodsRecord>(`/api/admin/goods/${id}`),
    enabled: id !== null,
    staleTime: 0,
  });
}

/** Adds a goods (`id` null) or changes the fields given of goods `id`. */
export function useSaveGoods(id: number | null) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (fields: Record<string, string>) =>
      id === null
        ? adminApi.post<GoodsRecord>('/api/admin/goods', fields, { silent: true }).then((goods) => ({ changed: [], goods }))
        : adminApi.put<GoodsChanged>(`/api/admin/goods/${id}`, fields, { silent: true }),
    onSuccess: refresh,
  });
}

export function useBulkGoods() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (form: { ids: string; action: string; value?: string }) =>
      adminApi.post<{ changed: number }>('/api/admin/goods/bulk', form),
    onSuccess: refresh,
  });
}

export function useGoodsPictures(goods: number) {
  return useQuery({
    queryKey: ['admin', 'goods', 'pictures', goods],
    queryFn: () => adminApi.get<GoodsPicture[]>(`/api/admin/goods/${goods}/pictures`),
    staleTime: 0,
  });
}

/** Uploads pictures for a goods, deletes one (`remove`) or puts them in an `order`; each answers
 * the goods' pictures now, which the list takes at once. */
export function useChangePictures(goods: number) {
  const client = useQueryClient();
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (change: { upload: File[] } | { remove: number } | { order: number[] }) => {
      const path = `/api/admin/goods/${goods}/pictures`;
      if ('upload' in change) {
        const form = new FormData();
        for (const file of change.upload) form.append('pictures', file);
        return adminApi.upload<GoodsPicture[]>(path, form, { silent: true });
      }
      if ('remove' in change) return adminApi.delete<GoodsPicture[]>(`${path}/${change.remove}`, { silent: true });
      return adminApi.put<GoodsPicture[]>(path, { order: change.order.join(',') }, { silent: true });
    },
    onSuccess: (pictures) => {
      client.setQueryData(['admin', 'goods', 'pictures', goods], pictures);
      void refresh();
    },
  });
}

/** Imports a goods workbook: a dry run unless `commit`. */
export function useImportGoods() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ file, commit }: { file: File; commit: boolean }) => {
      const form = new FormData();
      form.append('file', file);
      form.append('commit', commit ? '1' : '0');
      return adminApi.upload<ImportReport>('/api/admin/goods/import', form);
    },
    onSuccess: (report) => {
      if (report.committed) void refresh();
    },
  });
}

export function useManjianList() {
  return useQuery({
    queryKey: ['admin', 'manjian', 'list'],
    queryFn: () => adminApi.get<ManjianRow[]>('/api/admin/manjian'),
    staleTime: 0,
  });
}

export function useManjian(id: number | null) {
  return useQuery({
    queryKey: ['admin', 'manjian', 'record', id],
    queryFn: () => adminApi.get<ManjianRecord>(`/api/admin/manjian/${id}`),
    enabled: id !== null,
    staleTime: 0,
  });
}

/** A 满减 activity as the form sends it (`tiers` as `200:20,500:60`, `goods` by commas). */
export type ManjianDraft = {
  title: string;
  starts_at: number;
  ends_at: number;
  tiers: string;
  goods: string;
};

/** Adds an activity (`id` null) or replaces activity `id`; refusals are the form's to show. */
export function useSaveManjian(id: number | null) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (form: ManjianDraft & { move_goods: number }) =>
      id === null
        ? adminApi.post<ManjianRecord>('/api/admin/manjian', form, { silent: true })
        : adminApi.put<ManjianRecord>(`/api/admin/manjian/${id}`, form, { silent: true }),
    onSuccess: refresh,
  });
}

export function useEndManjian() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => adminApi.post<{ id: number }>(`/api/admin/manjian/${id}/end`),
    onSuccess: refresh,
  });
}

/** The engine's quote of a sample cart under a draft; saves nothing. */
export function usePreviewManjian() {
  return useMutation({
    mutationFn: (form: ManjianDraft & { id?: number; sample: string }) =>
      adminApi.post<ManjianPreview>('/api/admin/manjian/preview', form, { silent: true }),
  });
}

export function useFlashSales(goods: number | null) {
  return useQuery({
    queryKey: ['admin', 'flash-sales', goods],
    queryFn: () => adminApi.get<FlashRow[]>('/api/admin/flash-sales', { params: goods === null ? {} : { goods } }),
    staleTime: 0,
  });
}

/** A 秒杀 session as the form sends it. */
export type FlashDraft = {
  goods_id: number;
  price: string;
  limit_number: number;
  starts_at: number;
  ends_at: number;
};

/** Adds a session (`id` null) or changes session `id`; refusals are the form's to show. */
export function useSaveFlash() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, ...form }: FlashDraft & { id: number | null }) =>
      id === null
        ? adminApi.post<{ id: number }>('/api/admin/flash-sales', form, { silent: true })
        : adminApi.put<{ id: number }>(`/api/admin/flash-sales/${id}`, form, { silent: true }),
    onSuccess: refresh,
  });
}

export function useEndFlash() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => adminApi.post<{ id: number }>(`/api/admin/flash-sales/${id}/end`),
    onSuccess: refresh,
  });
}

/** The engine's quote of a session's limit at its price and at the goods' own; saves nothing. */
export function usePreviewFlash() {
  return useMutation({
    mutationFn: (form: FlashDraft) => adminApi.post<FlashPreview>('/api/admin/flash-sales/preview', form, { silent: true }),
  });
}

export function useCouponTemplates() {
  return useQuery({
    queryKey: ['admin', 'coupon-templates'],
    queryFn: () => adminApi.get<TemplateRow[]>('/api/admin/coupon-templates'),
    staleTime: 0,
  });
}

/** A template as the form sends it; `template` is `coupon` or `voucher`. */
export type TemplateDraft = Record<string, string | number>;

/** Adds a template (`id` null) or changes one; refusals are the form's to show. */
export function useSaveTemplate() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, form }: { id: number | null; form: TemplateDraft }) =>
      id === null
        ? adminApi.post<{ id: number }>('/api/admin/coupon-templates', form, { silent: true })
        : adminApi.put<{ id: number }>(`/api/admin/coupon-templates/${form.template}/${id}`, form, { silent: true }),
    onSuccess: refresh,
  });
}

/** What a copy of the template takes off sample goods amounts, settled by the engine. */
export function usePreviewTemplate() {
  return useMutation({
    mutationFn: (form: TemplateDraft) => adminApi.post<TemplatePreviewRow[]>('/api/admin/coupon-templates/preview', form, { silent: true }),
  });
}

export function useGrantTemplate() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ template, id, form }: { template: string; id: number; form: Record<string, string | number> }) =>
      adminApi.post<{ members: number }>(`/api/admin/coupon-templates/${template}/${id}/grant`, form, { silent: true }),
    onSuccess: refresh,
  });
}

export function useCombinations() {
  return useQuery({
    queryKey: ['admin', 'combinations'],
    queryFn: () => adminApi.get<SetRow[]>('/api/admin/combinations'),
    staleTime: 0,
  });
}

/** A 组合购 set as the form sends it (`items` as `goods:quantity,…`). */
export type SetDraft = { name: string; price: string; stock: number; items: string };

/** Adds a set (`id` null) or replaces set `id`; refusals are the form's to show. */
export function useSaveSet() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, form }: { id: number | null; form: SetDraft }) =>
      id === null
        ? adminApi.post<{ id: number }>('/api/admin/combinations', form, { silent: true })
        : adminApi.put<{ id: number }>(`/api/admin/combinations/${id}`, form, { silent: true }),
    onSuccess: refresh,
  });
}

/** One set against its goods bought apart, priced by the engine; saves nothing. */
export function usePreviewSet() {
  return useMutation({
    mutationFn: (form: SetDraft) => adminApi.post<SetPreview>('/api/admin/combinations/preview', form, { silent: true }),
  });
}

export function useCashbackList() {
  return useQuery({
    queryKey: ['admin', 'cashback'],
    queryFn: () => adminApi.get<CashbackRow[]>('/api/admin/cashback'),
    staleTime: 0,
  });
}

/** A 满额返现 activity as the form sends it (`tiers` as `1000:20,3000:80`). */
export type CashbackDraft = { title: string; starts_at: number; ends_at: number; tiers: string };

/** Adds an activity (`id` null) or changes activity `id`; refusals are the form's to show. */
export function useSaveCashback() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, form }: { id: number | null; form: CashbackDraft }) =>
      id === null
        ? adminApi.post<{ id: number }>('/api/admin/cashback', form, { silent: true })
        : adminApi.put<{ id: number }>(`/api/admin/cashback/${id}`, form, { silent: true }),
    onSuccess: refresh,
  });
}

export function useEndCashback() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => adminApi.post<{ id: number }>(`/api/admin/cashback/${id}/end`),
    onSuccess: refresh,
  });
}

/** What orders of the sample amounts get back under a draft, by the engine; saves nothing. */
export function usePreviewCashback() {
  return useMutation({
    mutationFn: (form: CashbackDraft & { sample: string }) =>
      adminApi.post<CashbackSample[]>('/api/admin/cashback/preview', form, { silent: true }),
  });
}

export function useSpecials() {
  return useQuery({
    queryKey: ['admin', 'specials'],
    queryFn: () => adminApi.get<SpecialRow[]>('/api/admin/specials'),
    staleTime: 0,
  });
}

/** Makes `goods` 天天特价, in that order; refusals are the page's to show. */
export function useSaveSpecials() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (goods: number[]) => adminApi.put<{ count: number }>('/api/admin/specials', { goods: goods.join(',') }, { silent: true }),
    onSuccess: refresh,
  });
}

export function usePointsGoods() {
  return useQuery({
    queryKey: ['admin', 'points-goods'],
    queryFn: () => adminApi.get<PointsGoodsRow[]>('/api/admin/points-goods'),
    staleTime: 0,
  });
}

/** A points-mall item as the form sends it (every field, money as text). */
export type PointsGoodsDraft = {
  name: string;
  description: string;
  kind: number;
  goods_id?: number;
  coupon_id?: number;
  red_packet?: string;
  points: number;
  price: string;
  stock: number;
  per_member: number;
  sort: number;
  is_on: number;
};

/** Adds an item (`id` null) or replaces item `id`; refusals are the form's to show. */
export function useSavePointsGoods() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, form }: { id: number | null; form: PointsGoodsDraft }) =>
      id === null
        ? adminApi.post<{ id: number }>('/api/admin/points-goods', form, { silent: true })
        : adminApi.put<{ id: number }>(`/api/admin/points-goods/${id}`, form, { silent: true }),
    onSuccess: refresh,
  });
}

export function useDraws() {
  return useQuery({
    queryKey: ['admin', 'draws'],
    queryFn: () => adminApi.get<DrawRow[]>('/api/admin/draws'),
    staleTime: 0,
  });
}

/** A lucky-draw activity as the form sends it (`prizes` a JSON array). */
export type DrawDraft = { title: string; description: string; starts_at: number; ends_at: number; prizes: string };

/** Adds an activity (`id` null) or replaces activity `id`; refusals are the form's to show. */
export function useSaveDraw() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, form }: { id: number | null; form: DrawDraft }) =>
      id === null
        ? adminApi.post<{ id: number }>('/api/admin/draws', form, { silent: true })
        : adminApi.put<{ id: number }>(`/api/admin/draws/${id}`, form, { silent: true }),
    onSuccess: refresh,
  });
}

export function useEndDraw() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => adminApi.post<{ id: number }>(`/api/admin/draws/${id}/end`),
    onSuccess: refresh,
  });
}

/** Each prize's chance on the first draw under a draft; saves nothing. */
export function usePreviewDraw() {
  return useMutation({
    mutationFn: (form: DrawDraft) => adminApi.post<PrizeChance[]>('/api/admin/draws/preview', form, { silent: true }),
  });
}

export function useActivityPages() {
  return useQuery({
    queryKey: ['admin', 'activities'],
    queryFn: () => adminApi.get<ActivityPageRow[]>('/api/admin/activities'),
    staleTime: 0,
  });
}

/** An activity page as the form sends it (`sections` one per line, `title:goods,goods`). */
export type ActivityPageDraft = {
  url: string;
  title: string;
  subtitle: string;
  template: string;
  color: string;
  note: string;
  starts_at: number;
  ends_at: number;
  sort: number;
  sections: string;
};

/** Adds an activity page (`id` null) or replaces page `id`; refusals are the form's to show. */
export function useSaveActivityPage() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, form }: { id: number | null; form: ActivityPageDraft }) =>
      id === null
        ? adminApi.post<{ id: number }>('/api/admin/activities', form, { silent: true })
        : adminApi.put<{ id: number }>(`/api/admin/activities/${id}`, form, { silent: true }),
    onSuccess: refresh,
  });
}

export function useEndActivityPage() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: number) => adminApi.post<{ id: number }>(`/api/admin/activities/${id}/end`),
    onSuccess: refresh,
  });
}
