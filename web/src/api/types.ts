// The shapes the origin answers (api.md, product spec §3), as the app reads them.

export interface Tag {
  name: string;
  describe: string;
  is_show: number;
  isLadder: number;
}

export interface LadderStep {
  number: number;
  price: string;
}

/** A goods as lists, detail and cart lines show it. */
export interface Goods {
  id: number;
  name: string;
  /** 生产厂家 */
  sccj: string;
  /** 规格 */
  ypgg: string;
  /** 包装单位 */
  bzdw: string;
  /** 批准文号 */
  pzwh: string;
  price: string;
  base_price: string;
  /** Stock. */
  number: number;
  stock_state: string;
  is_buy: number;
  is_youx: number;
  type: number;
  is_dpby: number;
  qg_number: number;
  ladder_price: LadderStep[];
  ladder_price_type: number;
  goods_manjian_id: number;
  tags: Tag[];
  flash_sale: { id: number; price: string; limit: number; ends_at: number } | null;
  goods_image: string[];
  ck_id: number;
}

export interface GoodsDetail extends Goods {
  description: string;
  category_path: { id: number; name: string }[];
  brand: { id: number; name: string } | null;
  /** 件装量 */
  jzl: number;
  validity: string;
  origin: string;
  rx: number;
  is_favorite: number;
  manjian: { id: number; title: string; tiers: { amount: string; reduce: string }[] } | null;
  query: { goods_price_id: number; ladder_price_id: number; goods_manjian_id: number; is_yj: number; is_jxq: number };
}

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  last_page?: number;
}

export interface Category {
  id: number;
  name: string;
  logo: string;
  logo1: string;
  children: Category[];
}

export interface NavItem {
  id: number;
  name: string;
  url: string;
  image: string;
  is_open: number;
  children: NavItem[];
}

export interface Brand {
  id: number;
  name: string;
  logo: string;
  sccj: string;
}

export interface CommonData {
  rnss: string[];
  nav: NavItem[];
  category: Category[];
  category_yx: Category[];
  category_zy: Category[];
  category_qx: Category[];
  brand: Brand[];
  timestamp: number;
}

export interface Banner {
  id: number;
  title: string;
  subtitle: string;
  image: string;
  url: string;
  color: string;
}

export interface UserState {
  show: boolean;
  login?: boolean;
  username?: string;
  name?: string;
  phone?: string;
  company?: string;
  rank?: number;
  admin?: { name: string; phone: string; is_default?: number } | null;
  is_passed?: number;
  points?: number;
  cart?: number;
  message_count?: number;
  common_config?: { hot_line: string; qq1: string; qq2: string };
  quality_inspection?: { quality_inspection_url: string; msg: string };
  login_url?: string;
  is_AfterSale?: string;
}
