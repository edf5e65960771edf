// One order in the console, found by its number (as printed) or id: the buyer, the lines and
// what of them has left, the parcels with their lots, delivery notes and carrier events, and
// the order's history. The warehouse ships the next parcel here — units per line (all that is
// left by default), carrier and tracking number; the lots are taken earliest expiry first.
// An unpaid order can be cancelled with a reason the buyer reads.
import { useMemo, useState } from 'react';
import {
  AutoComplete,
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Result,
  Space,
  Spin,
  Table,
  Timeline,
  Typography,
} from 'antd';
import { Link, useParams } from 'react-router';
import { ApiError } from '@/lib/api-client';
import { formatTime } from '@/lib/time';
import { can, useCancel, useLogistics, useOrder, useShip, type AdminOrder, type OperatorMe } from './api';
import { Money } from './console';
import { StatusTag } from './orders';

type Order = AdminOrder['order'];
type Item = Order['items'][number];
type Shipment = Order['shipments'][number];

const CARRIERS = ['顺丰速运', '京东物流', '中通快递', '圆通速递', '韵达快递', '申通快递', 'EMS'];

const ACTORS: Record<string, string> = { member: '会员', operator: '商城', system: '系统' };

function ShipForm({ reference, order }: { reference: string; order: Order }) {
  const left = useMemo(() => order.items.filter((item) => item.number > item.shipped), [order.items]);
  const [units, setUnits] = useState<Record<number, number>>(() =>
    Object.fromEntries(left.map((item) => [item.id, item.number - item.shipped])),
  );
  const [form] = Form.useForm<{ carrier: string; tracking: string }>();
  const ship = useShip(reference);
  const chosen = left.filter((item) => (units[item.id] ?? 0) > 0);
  const submit = async ({ carrier, tracking }: { carrier: string; tracking: string }) => {
    const lines = chosen.map((item) => `${item.id}:${units[item.id]}`).join(',');
    try {
      const shipped = await ship.mutateAsync({ carrier: carrier.trim(), tracking: tracking.trim(), lines });
      form.resetFields();
      Modal.success({
        title: '已发货',
        content:
          shipped.left > 0
            ? `第${shipped.seq}个包裹已发出，还有${shipped.left}件待发货。`
            : `第${shipped.seq}个包裹已发出，订单已全部发货。`,
      });
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) {
        form.setFields(
          Object.entries(error.fieldErrors)
            .filter(([name]) => name === 'carrier' || name === 'tracking')
            .map(([name, errors]) => ({ name: name as 'carrier' | 'tracking', errors })),
        );
      }
    }
  };
  return (
    <Card title="发货" className="console-cards" data-testid="ship-card">
      <Table<Item>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={left}
        columns={[
          { title: '商品', dataIndex: 'name' },
          { title: '规格', dataIndex: 'ypgg' },
          { title: '购买', dataIndex: 'number', align: 'right' },
          { title: '已发', dataIndex: 'shipped', align: 'right' },
          {
            title: '本次发货',
            align: 'right',
            render: (_, item) => (
              <InputNumber
                aria-label={`本次发货 ${item.name}`}
                min={0}
                max={item.number - item.shipped}
                precision={0}
                value={units[item.id] ?? 0}
                onChange={(value) => setUnits((now) => ({ ...now, [item.id]: value ?? 0 }))}
              />
            ),
          },
        ]}
      />
      <Form form={form} layout="inline" onFinish={submit} style={{ marginTop: 16 }}>
        <Form.Item name="carrier" label="物流公司" rules={[{ required: true, whitespace: true, message: '请填写物流公司' }]}>
          <AutoComplete options={CARRIERS.map((value) => ({ value }))} style={{ width: 160 }} placeholder="选择或输入" />
        </Form.Item>
        <Form.Item name="tracking" label="运单号" rules={[{ required: true, whitespace: true, message: '请填写运单号' }]}>
          <Input style={{ width: 200 }} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={ship.isPending} disabled={chosen.length === 0}>
          发货（{chosen.reduce((sum, item) => sum + (units[item.id] ?? 0), 0)}件）
        </Button>
      </Form>
    </Card>
  );
}

function LogisticsForm({ reference, shipment }: { reference: string; shipment: number }) {
  const [form] = Form.useForm<{ place: string; description: string }>();
  const add = useLogistics(reference);
  return (
    <Form
      form={form}
      layout="inline"
      onFinish={async (fields) => {
        await add.mutateAsync({ shipment, place: fields.place?.trim() ?? '', description: fields.description.trim() });
        form.resetFields();
      }}
    >
      <Form.Item name="place">
        <Input placeholder="地点" style={{ width: 120 }} aria-label="物流地点" />
      </Form.Item>
      <Form.Item name="description" rules={[{ required: true, whitespace: true, message: '请填写物流信息' }]}>
        <Input placeholder="物流信息，如：已到达杭州转运中心" style={{ width: 280 }} aria-label="物流信息" />
      </Form.Item>
      <Button htmlType="submit" loading={add.isPending}>
        添加物流信息
      </Button>
    </Form>
  );
}

function Parcel({ reference, shipment, canShip }: { reference: string; shipment: Shipment; canShip: boolean }) {
  return (
    <Card
      size="small"
      className="console-cards"
      data-testid="admin-parcel"
      title={`第${shipment.seq}个包裹 · ${shipment.carrier} ${shipment.tracking_no}`}
      extra={
        <Space>
          <span>{formatTime(shipment.shipped_at)}</span>
          <a href={`/api/admin/orders/${encodeURIComponent(reference)}/shipments/${shipment.id}/note.pdf`} target="_blank" rel="noreferrer">
            随货同行单
          </a>
        </Space>
      }
    >
      <Table
        size="small"
        pagination={false}
        rowKey={(row) => `${row.item}-${row.lot}`}
        dataSource={shipment.items.flatMap((item) =>
          item.lots.length === 0
            ? [{ item: item.order_item_id, lot: 0, name: item.name, lot_no: '—', expires_on: '', number: item.number }]
            : item.lots.map((lot) => ({
                item: item.order_item_id,
                lot: lot.lot_id,
                name: lot.goods_name,
                lot_no: lot.lot_no,
                expires_on: lot.expires_on,
                number: lot.number,
              })),
        )}
        columns={[
          { title: '商品', dataIndex: 'name' },
          { title: '批号', dataIndex: 'lot_no' },
          { title: '有效期至', dataIndex: 'expires_on' },
          { title: '数量', dataIndex: 'number', align: 'right' },
        ]}
      />
      <Timeline
        style={{ marginTop: 16 }}
        items={[...shipment.logistics].reverse().map((event) => ({
          children: `${formatTime(event.created_at)} ${event.place} ${event.description}`,
        }))}
      />
      {canShip && <LogisticsForm reference={reference} shipment={shipment.id} />}
    </Card>
  );
}

function CancelButton({ reference }: { reference: string }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const cancel = useCancel(reference);
  return (
    <>
      <Button danger onClick={() => setOpen(true)}>
        取消订单
      </Button>
      <Modal
        title="取消订单"
        open={open}
        okText="确认取消"
        cancelText="返回"
        okButtonProps={{ danger: true, disabled: reason.trim() === '', loading: cancel.isPending }}
        onCancel={() => setOpen(false)}
        onOk={async () => {
          await cancel.mutateAsync(reason.trim());
          setOpen(false);
        }}
      >
        <Typography.Paragraph>订单取消后，库存和会员使用的优惠券、红包、积分将退回。取消原因会告知会员。</Typography.Paragraph>
        <Input.TextArea aria-label="取消原因" rows={3} maxLength={200} value={reason} onChange={(event) => setReason(event.target.value)} />
      </Modal>
    </>
  );
}

export function OrderPage({ me }: { me: OperatorMe }) {
  const { reference = '' } = useParams();
  const { data, isPending, error } = useOrder(reference);
  if (isPending) return <Spin />;
  if (!data) {
    const message = error instanceof ApiError ? error.message : '订单不存在';
    return <Result status="404" title={message} extra={<Link to="/admin/orders">返回订单列表</Link>} />;
  }
  const { order, member } = data;
  const canShip = can(me, 'ship');
  const shippable = (order.status === 1 || order.status === 2) && order.unshipped > 0;
  return (
    <div data-testid="admin-order">
      <Card
        className="console-cards"
        title={
          <Space>
            <span>订单 {order.order_no}</span>
            <StatusTag status={order.status} />
          </Space>
        }
        extra={order.status === 0 && can(me, 'cancel_orders') ? <CancelButton reference={order.order_no} /> : null}
      >
        <Descriptions column={3} size="small">
          <Descriptions.Item label="会员">
            {member.company}（{member.username}）
          </Descriptions.Item>
          <Descriptions.Item label="手机">{member.phone}</Descriptions.Item>
          <Descriptions.Item label="下单时间">{formatTime(order.created_at)}</Descriptions.Item>
          <Descriptions.Item label="收货地址" span={2}>
            {order.address}
          </Descriptions.Item>
          <Descriptions.Item label="付款时间">{order.paid_at ? formatTime(order.paid_at) : '未付款'}</Descriptions.Item>
          <Descriptions.Item label="商品金额">
            <Money value={order.total} />
          </Descriptions.Item>
          <Descriptions.Item label="应付金额">
            <Money value={order.due} />
          </Descriptions.Item>
          <Descriptions.Item label="待发件数">
            <span data-testid="admin-unshipped">{order.unshipped}</span>
          </Descriptions.Item>
          {order.remark && <Descriptions.Item label="备注">{order.remark}</Descriptions.Item>}
        </Descriptions>
      </Card>
      <Card title="商品" className="console-cards">
        <Table<Item>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={order.items}
          columns={[
            { title: '商品', dataIndex: 'name' },
            { title: '规格', dataIndex: 'ypgg' },
            { title: '生产厂家', dataIndex: 'sccj' },
            { title: '单价', dataIndex: 'price', align: 'right', render: (value: string) => <Money value={value} /> },
            { title: '数量', dataIndex: 'number', align: 'right' },
            { title: '已发', dataIndex: 'shipped', align: 'right' },
            { title: '已退', dataIndex: 'returned', align: 'right' },
            { title: '实付', dataIndex: 'paid', align: 'right', render: (value: string) => <Money value={value} /> },
          ]}
        />
      </Card>
      {canShip && shippable && <ShipForm key={`${order.order_no}-${order.unshipped}`} reference={order.order_no} order={order} />}
      <Card title="包裹" className="console-cards">
        {order.shipments.length === 0 ? (
          <Empty description="尚未发货" />
        ) : (
          order.shipments.map((shipment) => <Parcel key={shipment.id} reference={order.order_no} shipment={shipment} canShip={canShip} />)
        )}
      </Card>
      <Card title="订单记录">
        <Timeline
          items={order.timeline.map((event) => ({
            children: `${formatTime(event.created_at)} ${event.title}（${ACTORS[event.actor] ?? event.actor}）${event.note ? `：${event.note}` : ''}`,
          }))}
        />
      </Card>
    </div>
  );
}
