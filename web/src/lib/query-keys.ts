// Every query key of the app, one factory per resource. A resource's keys all start with its
// `all`, so invalidating `all` reaches each of its queries; nobody writes a key by hand, so an
// invalidation can never name a key no query has.

export const keys = {
  /** The cart: its lines with the server's quote, and the line count of the badge. */
  cart: {
    all: ['cart'] as const,
    list: () => [...keys.cart.all, 'list'] as const,
    total: () => [...keys.cart.all, 'total'] as const,
    /** `cart/next_hint`: what the selected lines still need for the next tier and free shipping. */
    nextHint: () => [...keys.cart.all, 'next-hint'] as const,
  },
  /** The signed-in member's state (`/api/user/base`), asked per route. */
  user: {
    all: ['user-base'] as const,
    base: (path: string) => [...keys.user.all, path] as const,
  },
  /** Accounts: whether a phone is free to register. */
  auth: {
    all: ['auth'] as const,
    phoneFree: (phone: string) => [...keys.auth.all, 'phone-free', phone] as const,
  },
  /** The member centre's figures and draw records. */
  centre: {
    all: ['member-centre'] as const,
    summary: () => [...keys.centre.all, 'summary'] as const,
    draws: () => [...keys.centre.all, 'draws'] as const,
  },
  account: {
    all: ['account'] as const,
    addresses: () => [...keys.account.all, 'addresses'] as const,
    stores: () => [...keys.account.all, 'stores'] as const,
    certificates: () => [...keys.account.all, 'certificates'] as const,
    agreement: () => [...keys.account.all, 'agreement'] as const,
    wechat: () => [...keys.account.all, 'wechat'] as const,
    messages: () => [...keys.account.all, 'messages'] as const,
    messagesPage: (page: number, kind: number, unread: boolean) => [...keys.account.messages(), page, kind, unread] as const,
    scope: () => [...keys.account.all, 'scope'] as const,
    /** The member's company and its store accounts (`/api/user/company`). */
    company: () => [...keys.account.all, 'company'] as const,
  },
  wallet: {
    all: ['wallet'] as const,
    money: () => [...keys.wallet.all, 'money'] as const,
    log: (account: string, filter: unknown) => [...keys.wallet.all, 'log', account, filter] as const,
    couponCount: () => [...keys.wallet.all, 'coupon-count'] as const,
    coupons: (status: number, kind: number, page: number) => [...keys.wallet.all, 'coupons', status, kind, page] as const,
    vouchers: (status: number, page: number) => [...keys.wallet.all, 'vouchers', status, page] as const,
    moneyConfig: () => [...keys.wallet.all, 'money-config'] as const,
  },
  orders: {
    all: ['orders'] as const,
    list: (filter: unknown) => [...keys.orders.all, 'list', filter] as const,
    detail: (id: number) => [...keys.orders.all, 'detail', id] as const,
    afterSales: (order: number) => [...keys.orders.all, 'after-sales', order] as const,
    invoices: (page: number) => [...keys.orders.all, 'invoices', page] as const,
    returns: (order: number) => [...keys.orders.all, 'returns', order] as const,
    returnQuote: (order: number, lines: unknown) => [...keys.orders.all, 'return-quote', order, lines] as const,
  },
  checkout: {
    all: ['checkout'] as const,
    preview: (chosen: unknown) => [...keys.checkout.all, chosen] as const,
    /** A page of the member's coupons usable now (`availableCoupon`), of a kind (0 every kind). */
    coupons: (kind: number, page: number) => [...keys.checkout.all, 'available-coupons', kind, page] as const,
  },
  payment: {
    all: ['payment'] as const,
    of: (paymentNo: string | undefined) => [...keys.payment.all, paymentNo] as const,
  },
  goods: {
    all: ['goods'] as const,
    list: (params: unknown) => [...keys.goods.all, 'list', params] as const,
    detail: (id: number, query: unknown) => [...keys.goods.all, 'detail', id, query] as const,
    detailOf: (id: number) => [...keys.goods.all, 'detail', id] as const,
    hot: () => [...keys.goods.all, 'hot'] as const,
    activities: (params: unknown) => [...keys.goods.all, 'activities', params] as const,
  },
  favorites: {
    all: ['favorites'] as const,
    page: (page: number) => [...keys.favorites.all, page] as const,
  },
  home: {
    all: ['home'] as const,
    common: () => [...keys.home.all, 'common'] as const,
    banners: () => [...keys.home.all, 'banners'] as const,
    spike: () => [...keys.home.all, 'spike'] as const,
    recommendations: (page: number) => [...keys.home.all, 'wntj', page] as const,
    everydayPrice: () => [...keys.home.all, 'everyday-price'] as const,
    ad: (position: string) => [...keys.home.all, 'ad', position] as const,
    links: () => [...keys.home.all, 'links'] as const,
    helpGroups: () => [...keys.home.all, 'help-groups'] as const,
  },
  articles: {
    all: ['articles'] as const,
    article: (id: number | undefined) => [...keys.articles.all, 'article', id] as const,
    news: (category: unknown) => [...keys.articles.all, 'news', category] as const,
  },
  activities: {
    all: ['activities'] as const,
    list: (key: unknown) => [...keys.activities.all, 'list', key] as const,
    one: (key: unknown) => [...keys.activities.all, 'one', key] as const,
  },
  zones: {
    all: ['zones'] as const,
    goods: (params: unknown) => [...keys.zones.all, 'goods', params] as const,
    brands: (page: number) => [...keys.zones.all, 'brands', page] as const,
    brand: (id: number) => [...keys.zones.all, 'brand', id] as const,
    welfare: () => [...keys.zones.all, 'welfare'] as const,
    cashback: () => [...keys.zones.all, 'cashback'] as const,
    combinations: () => [...keys.zones.all, 'combinations'] as const,
  },
  kxzq: {
    all: ['kxzq'] as const,
    zone: () => [...keys.kxzq.all, 'zone'] as const,
    programme: (url: string | undefined) => [...keys.kxzq.all, 'programme', url] as const,
    ads: (key: string) => [...keys.kxzq.all, 'ads', key] as const,
    fresh: () => [...keys.kxzq.all, 'new'] as const,
  },
  promotion: {
    all: ['promotion'] as const,
    centre: () => [...keys.promotion.all, 'centre'] as const,
    mall: (filter: unknown) => [...keys.promotion.all, 'mall', filter] as const,
    orders: (page: number, status: unknown) => [...keys.promotion.all, 'orders', page, status] as const,
  },
  draw: {
    all: ['draw'] as const,
    simple: () => [...keys.draw.all, 'simple'] as const,
    activity: (id: number | null) => [...keys.draw.all, 'activity', id] as const,
    ads: () => [...keys.draw.all, 'ads'] as const,
    /** An activity's latest winners (`draw/new_record`). */
    winners: (id: number | null) => [...keys.draw.all, 'winners', id] as const,
    /** An activity's rules and prizes left, by path (`draw/{id}/activity`). */
    rules: (id: number | null) => [...keys.draw.all, 'rules', id] as const,
  },
  selfService: {
    all: ['self-service'] as const,
    fastBuy: (page: number, order: unknown) => [...keys.selfService.all, 'fast-buy', page, order] as const,
    wanted: () => [...keys.selfService.all, 'wanted'] as const,
    wantedPage: (page: number) => [...keys.selfService.wanted(), 'list', page] as const,
    wantedOne: (id: number) => [...keys.selfService.wanted(), id] as const,
    feedback: () => [...keys.selfService.all, 'feedback'] as const,
    feedbackPage: (page: number) => [...keys.selfService.feedback(), page] as const,
  },
};
