// The back office at /admin (docs/backoffice.md): the operator signs in, then works in a frame
// of its own — a menu of what their role may do, and the screens. Nothing of the shop's frame
// (header, nav, cart) is here, and the console's code loads only at /admin.
import { useEffect } from 'react';
import { Button, Layout, Menu, Result, Spin, Typography, message } from 'antd';
import { Link, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import 'dayjs/locale/zh-cn';
import { can, connectConsole, ROLE_NAMES, useLogout, useMe, type OperatorMe, type Permission } from './api';
import { LoginPage } from './login';
import { DashboardPage } from './dashboard';
import { OrdersPage } from './orders';
import { MembersPage } from './members';
import { MemberPageView } from './member';
import { BalanceRequestsPage } from './gifts';
import { MessagesPage } from './messages';
import { PointsOrdersPage } from './points-orders';
import { OrderPage } from './order';
import { InvoicesPage } from './invoices';
import { ReturnsPage } from './returns';
import { AfterSalesPage } from './after-sales';
import { OperatorsPage } from './operators';
import { AuditPage } from './audit';
import { SettingsPage } from './settings';
import { StockPage } from './stock';
import { GoodsPage } from './goods';
import { GoodsFormPage } from './goods-form';
import { ManjianFormPage, ManjianPage } from './manjian';
import { FlashSalesPage } from './flash';
import { CouponsPage } from './coupons';
import { CashbackPage } from './cashback';
import { CombinationsPage } from './combinations';
import { SpecialsPage } from './specials';
import { PointsGoodsPage } from './points-goods';
import { DrawsPage } from './draws';
import { ActivityPagesPage } from './activities';
import { ArticlesPage } from './articles';
import { BlocksPage } from './blocks';
import './console.css';

interface Screen {
  path: string;
  label: string;
  need: Permission;
}

/** The console's screens in the menu's order, each with the permission it needs. */
const SCREENS: Screen[] = [
  { path: '/admin', label: '工作台', need: 'read' },
  { path: '/admin/members', label: '会员', need: 'read' },
  { path: '/admin/balance-requests', label: '余额审批', need: 'read' },
  { path: '/admin/orders', label: '订单', need: 'read' },
  { path: '/admin/returns', label: '退货', need: 'read' },
  { path: '/admin/after-sales', label: '售后', need: 'read' },
  { path: '/admin/invoices', label: '发票', need: 'read' },
  { path: '/admin/messages', label: '留言', need: 'read' },
  { path: '/admin/points-orders', label: '积分订单', need: 'read' },
  { path: '/admin/goods', label: '商品', need: 'read' },
  { path: '/admin/stock', label: '批号入库', need: 'read' },
  { path: '/admin/manjian', label: '满减活动', need: 'read' },
  { path: '/admin/flash-sales', label: '秒杀', need: 'read' },
  { path: '/admin/coupons', label: '优惠券', need: 'read' },
  { path: '/admin/combinations', label: '组合购', need: 'read' },
  { path: '/admin/cashback', label: '满额返现', need: 'read' },
  { path: '/admin/specials', label: '天天特价', need: 'read' },
  { path: '/admin/points-goods', label: '积分商品', need: 'read' },
  { path: '/admin/draws', label: '抽奖活动', need: 'read' },
  { path: '/admin/activities', label: '活动页', need: 'read' },
  { path: '/admin/articles', label: '文章', need: 'read' },
  { path: '/admin/blocks', label: '广告与导航', need: 'read' },
  { path: '/admin/settings', label: '店铺设置', need: 'read' },
  { path: '/admin/operators', label: '员工与权限', need: 'operators' },
  { path: '/admin/audit', label: '操作日志', need: 'read_audit' },
];

function selected(pathname: string): string {
  const match = SCREENS.filter((screen) => screen.path !== '/admin' && pathname.startsWith(screen.path));
  return match[0]?.path ?? '/admin';
}

function Frame({ me }: { me: OperatorMe }) {
  const location = useLocation();
  const logout = useLogout();
  const navigate = useNavigate();
  const allowed = (need: Permission) => can(me, need);
  const guard = (need: Permission, element: React.ReactElement) =>
    allowed(need) ? element : <Result status="403" title="403" subTitle="您的角色没有此页面的权限" />;
  return (
    <Layout className="console">
      <Layout.Sider width={200} theme="dark" className="console-sider">
        <div className="console-brand">药品批发商城 · 后台</div>
        <Menu
          theme="dark"
          mode="inline"
          selectedKeys={[selected(location.pathname)]}
          items={SCREENS.filter((screen) => allowed(screen.need)).map((screen) => ({
            key: screen.path,
            label: <Link to={screen.path}>{screen.label}</Link>,
          }))}
        />
      </Layout.Sider>
      <Layout>
        <Layout.Header className="console-header">
          <span data-testid="console-operator">
            {me.operator.name || me.operator.username}（{ROLE_NAMES[me.operator.role]}）
          </span>
          <Button
            type="link"
            onClick={() =>
              logout.mutateAsync().finally(() => {
                navigate('/admin/login', { replace: true });
                logout.forget();
              })
            }
            loading={logout.isPending}
          >
            退出
          </Button>
        </Layout.Header>
        <Layout.Content className="console-content">
          <Routes>
            <Route index element={guard('read', <DashboardPage />)} />
            <Route path="members" element={guard('read', <MembersPage />)} />
            <Route path="members/:id" element={guard('read', <MemberPageView me={me} />)} />
            <Route path="balance-requests" element={guard('read', <BalanceRequestsPage me={me} />)} />
            <Route path="orders" element={guard('read', <OrdersPage />)} />
            <Route path="orders/:reference" element={guard('read', <OrderPage me={me} />)} />
            <Route path="returns" element={guard('read', <ReturnsPage me={me} />)} />
            <Route path="after-sales" element={guard('read', <AfterSalesPage me={me} />)} />
            <Route path="invoices" element={guard('read', <InvoicesPage me={me} />)} />
            <Route path="messages" element={guard('read', <MessagesPage me={me} />)} />
            <Route path="points-orders" element={guard('read', <PointsOrdersPage me={me} />)} />
            <Route path="goods" element={guard('read', <GoodsPage me={me} />)} />
            <Route path="goods/:id" element={guard('read', <GoodsFormPage me={me} />)} />
            <Route path="stock" element={guard('read', <StockPage me={me} />)} />
            <Route path="manjian" element={guard('read', <ManjianPage me={me} />)} />
            <Route path="manjian/:id" element={guard('read', <ManjianFormPage me={me} />)} />
            <Route path="flash-sales" element={guard('read', <FlashSalesPage me={me} />)} />
            <Route path="coupons" element={guard('read', <CouponsPage me={me} />)} />
            <Route path="combinations" element={guard('read', <CombinationsPage me={me} />)} />
            <Route path="cashback" element={guard('read', <CashbackPage me={me} />)} />
            <Route path="specials" element={guard('read', <SpecialsPage me={me} />)} />
            <Route path="points-goods" element={guard('read', <PointsGoodsPage me={me} />)} />
            <Route path="draws" element={guard('read', <DrawsPage me={me} />)} />
            <Route path="activities" element={guard('read', <ActivityPagesPage me={me} />)} />
            <Route path="articles" element={guard('read', <ArticlesPage me={me} />)} />
            <Route path="blocks" element={guard('read', <BlocksPage me={me} />)} />
            <Route path="settings" element={guard('read', <SettingsPage me={me} />)} />
            <Route path="operators" element={guard('operators', <OperatorsPage me={me} />)} />
            <Route path="audit" element={guard('read_audit', <AuditPage />)} />
            <Route
              path="*"
              element={<Result status="404" title="404" subTitle="页面不存在" extra={<Link to="/admin">返回工作台</Link>} />}
            />
          </Routes>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}

export function AdminConsole() {
  const me = useMe();
  const navigate = useNavigate();
  const location = useLocation();
  const [messages, holder] = message.useMessage();

  useEffect(() => {
    document.title = '后台管理 - 药品批发商城';
    connectConsole({
      // A call refused after signing out (or on the login page itself) leads nowhere new.
      toLogin: () => {
        if (window.location.pathname === '/admin/login') return;
        navigate(`/admin/login?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`);
      },
      error: (text) => void messages.error(text),
    });
    return () => connectConsole(null);
  }, [navigate, messages]);

  if (me.isPending) return <Spin className="console-loading" />;
  const onLogin = location.pathname === '/admin/login';
  const page = onLogin ? (
    <LoginPage />
  ) : me.data ? (
    <Frame me={me.data} />
  ) : (
    <Navigate to={`/admin/login?redirect=${encodeURIComponent(location.pathname + location.search)}`} replace />
  );
  return (
    <>
      {holder}
      {page}
    </>
  );
}

export function Money({ value }: { value: string | null | undefined }) {
  const shown = value === null || value === undefined ? '—' : value.startsWith('-') ? `-¥${value.slice(1)}` : `¥${value}`;
  return <Typography.Text className="console-money">{shown}</Typography.Text>;
}
