// 会员中心 (/user, user_hyzx): who the member is and their approval, the account manager, the
// wallet, orders by state, the latest orders and unread messages, from `GET /api/user/center`,
// and the member's lucky-draw records
// (the header does not fetch the user state on this route, §6).
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Alert, Badge, Card, Descriptions, Empty, Skeleton, Statistic, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { yuan } from '@/lib/money';
import type { DrawRecord, MemberCentre, RecentOrder } from '@/api/types';
import { memberCentreQuery } from '@/api/member';
import { drawRecordsQuery } from '../api';
import { MemberLayout } from '@/components/member-layout';

function Approval({ centre }: { centre: MemberCentre }) {
  if (centre.is_passed === 1) return <Tag color="green">资质已通过</Tag>;
  if (centre.qualifications_rejected > 0) return <Tag color="red">资质未通过</Tag>;
  if (centre.qualifications_pending > 0) return <Tag color="orange">资质待审核</Tag>;
  return <Tag>未提交资质</Tag>;
}

/** 抽奖记录: what the member drew (where the draw popup sends a member who closed it early). */
function DrawRecordsCard() {
  const records = useQuery(drawRecordsQuery());
  if (!records.data?.list.length) return null;
  return (
    <Card size="small" title="抽奖记录" className="member-card" data-testid="draw-records">
      <Table<DrawRecord>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={records.data.list}
        columns={[
          { title: '活动', dataIndex: 'title' },
          { title: '奖品', dataIndex: 'name' },
          { title: '说明', dataIndex: 'remarks' },
          { title: '时间', dataIndex: 'created_at', render: (seconds: number) => dayjs.unix(seconds).format('YYYY-MM-DD HH:mm') },
        ]}
      />
    </Card>
  );
}

export function MemberCentrePage() {
  const centre = useQuery(memberCentreQuery());
  const data = centre.data;
  return (
    <MemberLayout title="会员中心">
      {!data ? (
        <Skeleton active />
      ) : (
        <div className="member-centre" data-testid="member-centre">
          {data.is_passed !== 1 && (
            <Alert
              type="warning"
              showIcon
              className="member-alert"
              message={
                <span>
                  资质审核通过后方可下单。<Link to="/zhzx/zzzj">上传或查看资质证件</Link>
                </span>
              }
            />
          )}
          <Card size="small" className="member-card">
            <Descriptions column={3} size="small">
              <Descriptions.Item label="企业名称">
                <strong data-testid="centre-company">{data.company}</strong>
              </Descriptions.Item>
              <Descriptions.Item label="账号">{data.username}</Descriptions.Item>
              <Descriptions.Item label="联系人">{data.name}</Descriptions.Item>
              <Descriptions.Item label="会员等级">V{data.rank}</Descriptions.Item>
              <Descriptions.Item label="资质状态">
                <Approval centre={data} />
              </Descriptions.Item>
              <Descriptions.Item label="专属客服">
                {data.manager.name ? `${data.manager.name} ${data.manager.phone}` : '平台客服'}
              </Descriptions.Item>
              {data.store && <Descriptions.Item label="当前门店">{data.store}</Descriptions.Item>}
            </Descriptions>
          </Card>

          <div className="member-stats">
            {[
              { title: '账户余额', value: yuan(data.balance), to: '/wdqb/yegl' },
              { title: '账户红包', value: yuan(data.red_packet), to: '/wdqb/zhhb' },
              { title: '积分', value: String(data.points), to: '/wdqb/jfgl' },
              { title: '可用优惠券', value: `${data.coupons} 张`, to: '/wdqb/yhq' },
              { title: '可用现金券', value: `${data.cash_vouchers} 张`, to: '/wdqb/xjq' },
              { title: '未读消息', value: `${data.unread_messages} 条`, to: '/zhzx/wdxx' },
            ].map((item) => (
              <Link key={item.to} to={item.to}>
                <Card size="small" hoverable>
                  <Statistic title={item.title} valueRender={() => <span>{item.value}</span>} />
                </Card>
              </Link>
            ))}
          </div>

          <Card size="small" title="我的订单" className="member-card">
            <div className="order-states">
              {data.orders.map((state) => (
                <Link key={state.status} to={`/order?status=${state.status}`} className="order-state">
                  <Badge count={state.status < 3 ? state.count : 0} size="small">
                    <span className="order-state-count">{state.count}</span>
                  </Badge>
                  <span>{state.status_name}</span>
                </Link>
              ))}
            </div>
          </Card>

          <Card size="small" title="最近订单" className="member-card">
            <Table<RecentOrder>
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={data.recent_orders}
              locale={{ emptyText: <Empty description="还没有订单" /> }}
              columns={[
                { title: '订单号', dataIndex: 'order_no', render: (no: string, order) => <Link to={`/order/info/${order.id}`}>{no}</Link> },
                { title: '下单时间', dataIndex: 'created_at', render: (seconds: number) => dayjs.unix(seconds).format('YYYY-MM-DD HH:mm') },
                { title: '商品', dataIndex: 'lines', render: (lines: number) => `${lines} 种` },
                { title: '应付金额', dataIndex: 'due', render: (due: string) => yuan(due) },
                { title: '状态', dataIndex: 'status_name' },
              ]}
            />
          </Card>

          <DrawRecordsCard />
        </div>
      )}
    </MemberLayout>
  );
}
