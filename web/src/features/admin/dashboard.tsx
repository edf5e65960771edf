// 工作台: today's figures, what waits (each a link to where it is handled, when the console has
// the screen), goods running low, lots and licences about to expire, and sales by day.
import { Card, Col, Empty, List, Row, Spin, Statistic, Table, Tag } from 'antd';
import { Link } from 'react-router';
import { useDashboard, type Dashboard } from './api';

function SalesBars({ days }: { days: Dashboard['sales_by_day'] }) {
  const most = Math.max(...days.map((day) => Number(day.sales)), 0);
  return (
    <div className="console-bars" role="img" aria-label="近14天销售额">
      {days.map((day) => (
        <div className="console-bar" key={day.day} title={`${day.day}：${day.orders}单，¥${day.sales}`}>
          <div className="console-bar-fill" style={{ height: most > 0 ? `${(Number(day.sales) / most) * 100}%` : 0 }} />
          <span>{day.day.slice(5)}</span>
        </div>
      ))}
    </div>
  );
}

/** Sales of the same days by top-level category, each a bar of its share of the largest. */
function CategoryBars({ categories }: { categories: Dashboard['sales_by_category'] }) {
  if (categories.length === 0) return <Empty description="暂无销售" />;
  const most = Math.max(...categories.map((category) => Number(category.sales)), 0);
  return (
    <div className="console-hbars" role="img" aria-label="近14天分类销售额">
      {categories.map((category) => (
        <div className="console-hbar" key={category.category_id} data-testid="category-sales">
          <span className="console-hbar-name">{category.name}</span>
          <span className="console-hbar-track">
            <span className="console-hbar-fill" style={{ width: most > 0 ? `${(Number(category.sales) / most) * 100}%` : 0 }} />
          </span>
          <span className="console-hbar-value">
            ¥{category.sales}（{category.units}件）
          </span>
        </div>
      ))}
    </div>
  );
}

export function DashboardPage() {
  const { data, isPending } = useDashboard();
  if (isPending || !data) return <Spin />;
  const waiting: { label: string; count: number; to?: string }[] = [
    { label: '待发货订单', count: data.waiting.to_ship, to: '/admin/orders?status=1' },
    { label: '待开发票', count: data.waiting.invoices, to: '/admin/invoices?pending=1' },
    { label: '余额待审批', count: data.waiting.balance_requests, to: '/admin/balance-requests' },
    { label: '待审资质', count: data.waiting.certificates, to: '/admin/members?pending=1' },
    { label: '控销申请', count: data.waiting.controlled_sales },
    { label: '退货处理中', count: data.waiting.returns, to: '/admin/returns' },
    { label: '售后待处理', count: data.waiting.after_sales, to: '/admin/after-sales' },
    { label: '意见反馈待回复', count: data.waiting.feedback, to: '/admin/messages' },
    { label: '品种求购待回复', count: data.waiting.wanted, to: '/admin/messages' },
  ];
  return (
    <div data-testid="dashboard">
      <Row gutter={16} className="console-cards">
        <Col span={6}>
          <Card>
            <Statistic title="今日下单" value={data.orders_today} suffix="单" />
          </Card>
        </Col>
        <Col span={6}>
          <Card>
            <Statistic title="今日付款订单" value={data.paid_today} suffix="单" />
          </Card>
        </Col>
        <Col span={6}>
          <Card>
            <Statistic title="今日销售额" value={data.sales_today} prefix="¥" />
          </Card>
        </Col>
        <Col span={6}>
          <Card>
            <Statistic title="今日在线收款" value={data.payments_today} prefix="¥" />
          </Card>
        </Col>
      </Row>
      <Row gutter={16} className="console-cards">
        <Col span={10}>
          <Card title="待处理">
            <List
              size="small"
              dataSource={waiting}
              renderItem={(item) => (
                <List.Item extra={<Tag color={item.count > 0 ? 'orange' : 'default'}>{item.count}</Tag>}>
                  {item.to ? <Link to={item.to}>{item.label}</Link> : item.label}
                </List.Item>
              )}
            />
          </Card>
        </Col>
        <Col span={14}>
          <Card title="近14天销售额">
            <SalesBars days={data.sales_by_day} />
          </Card>
          <Card title="近14天分类销售额" className="console-card-next">
            <CategoryBars categories={data.sales_by_category} />
          </Card>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col span={8}>
          <Card title="库存不足（少于20）">
            {data.low_stock.length === 0 ? (
              <Empty description="暂无" />
            ) : (
              <Table
                size="small"
                pagination={false}
                rowKey="id"
                dataSource={data.low_stock}
                columns={[
                  { title: '商品', dataIndex: 'name' },
                  { title: '规格', dataIndex: 'ypgg' },
                  { title: '库存', dataIndex: 'stock', align: 'right' },
                ]}
              />
            )}
          </Card>
        </Col>
        <Col span={8}>
          <Card title="近效期批号（90天内）">
            {data.expiring_lots.length === 0 ? (
              <Empty description="暂无" />
            ) : (
              <Table
                size="small"
                pagination={false}
                rowKey="id"
                dataSource={data.expiring_lots}
                columns={[
                  { title: '商品', dataIndex: 'name' },
                  { title: '批号', dataIndex: 'lot_no' },
                  { title: '有效期至', dataIndex: 'expires_on' },
                  { title: '库存', dataIndex: 'quantity', align: 'right' },
                ]}
              />
            )}
          </Card>
        </Col>
        <Col span={8}>
          <Card title="会员资质将过期（30天内）">
            {data.expiring_licences.length === 0 ? (
              <Empty description="暂无" />
            ) : (
              <Table
                size="small"
                pagination={false}
                rowKey="id"
                dataSource={data.expiring_licences}
                columns={[
                  { title: '会员', dataIndex: 'company' },
                  { title: '证件', dataIndex: 'kind' },
                  { title: '有效期至', dataIndex: 'expires_on' },
                ]}
              />
            )}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
