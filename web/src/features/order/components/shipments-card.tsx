// 物流信息: an order's parcels as shipped. Each parcel has its carrier and tracking number, its
// delivery note (随货同行单), and per line the lots it came from (批号, 生产日期, 有效期至, units)
// with each lot's inspection report (质检报告); then the carrier's events. A part-shipped order
// says how many units are still to come.
import { Alert, Card, Empty, Table, Timeline } from 'antd';
import type { OrderDetail, Shipment, ShippedLot } from '@/api/types';
import { formatTime } from '@/lib/time';

type LotRow = ShippedLot & { key: string; line: string };

export function ShipmentsCard({ order }: { order: OrderDetail }) {
  return (
    <Card size="small" title="物流信息" className="member-card" data-testid="order-logistics">
      {order.status === 2 && order.unshipped > 0 && (
        <Alert type="info" showIcon data-testid="order-unshipped" message={`部分发货：还有${order.unshipped}件待发货`} />
      )}
      {order.shipments.length === 0 ? (
        <Empty description="暂无物流信息" image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        order.shipments.map((shipment) => <Parcel key={shipment.id} order={order} shipment={shipment} />)
      )}
    </Card>
  );
}

function Parcel({ order, shipment }: { order: OrderDetail; shipment: Shipment }) {
  const rows: LotRow[] = shipment.items.flatMap((item) =>
    item.lots.map((lot, index) => ({ ...lot, key: `${item.order_item_id}-${lot.lot_id}-${index}`, line: item.name })),
  );
  return (
    <section className="parcel" data-testid={`parcel-${shipment.seq}`}>
      <p>
        <strong>包裹{shipment.seq}</strong> {shipment.carrier} 运单号：{shipment.tracking_no}
        <span className="muted"> {formatTime(shipment.shipped_at)}</span>{' '}
        <a href={`/api/order/${order.id}/shipment/${shipment.id}/note.pdf`} target="_blank" rel="noreferrer">
          随货同行单
        </a>
      </p>
      {rows.length > 0 && (
        <Table<LotRow>
          size="small"
          rowKey="key"
          pagination={false}
          dataSource={rows}
          columns={[
            {
              title: '商品',
              key: 'goods',
              render: (_: unknown, row) => (row.goods_name === row.line ? row.line : `${row.line}：${row.goods_name}`),
            },
            { title: '批号', dataIndex: 'lot_no' },
            { title: '生产日期', dataIndex: 'produced_on' },
            { title: '有效期至', dataIndex: 'expires_on' },
            { title: '数量', dataIndex: 'number', align: 'right' },
            {
              title: '质检报告',
              key: 'report',
              render: (_: unknown, row) =>
                row.has_report ? (
                  <a href={`/api/lot/${row.lot_id}/report`} target="_blank" rel="noreferrer">
                    查看
                  </a>
                ) : (
                  <span className="muted">暂无</span>
                ),
            },
          ]}
        />
      )}
      <Timeline
        items={shipment.logistics.map((event) => ({
          children: (
            <>
              <div>{event.description}</div>
              <div className="muted">
                {formatTime(event.created_at)} {event.place}
              </div>
            </>
          ),
        }))}
      />
    </section>
  );
}
