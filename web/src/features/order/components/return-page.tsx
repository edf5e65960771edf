// 退货详情 (/order/returnInfo/{id}, the order's id): the order's lines with the units still
// returnable, a return request (units per line, the lot they come back from, reason, description, photos) with the refund it
// will pay shown before submitting — the engine's rule 20, to the cent, with the red packets and
// points that come back and the earned points taken back — and the order's returns with their
// states, the shop's note and what each refunded.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Image,
  Input,
  InputNumber,
  Radio,
  Result,
  Select,
  Skeleton,
  Space,
  Table,
  Tag,
} from 'antd';
import type { UploadFile } from 'antd';
import { PhotoPicker } from '@/components/photo-picker';
import { pickedFiles } from '@/lib/files';
import { formatTime } from '@/lib/time';
import { positive, yuan } from '@/lib/money';
import type { ReturnInfo, ReturnRecord, ReturnableLine } from '@/api/types';
import { MemberLayout } from '@/components/member-layout';
import { fieldErrors } from '@/lib/field-errors';
import { returnForm, returnLines, returnQuoteQuery, returnsQuery, useRequestReturn, useWithdrawReturn } from '../api';
import { orderLineFacts } from '@/components/line-facts';
import { LineGoodsName } from '@/components/line-goods';
import { useUi } from '@/lib/ui';

/** 待审核, 待退货, 已拒绝, 已退款, 已撤销. */
const STATUS_COLOURS = ['orange', 'blue', 'red', 'green', 'default'];

function RequestForm({ info, done }: { info: ReturnInfo; done: () => Promise<unknown> }) {
  const { message } = useUi();
  const [form] = Form.useForm();
  const [chosen, setChosen] = useState<Record<number, number>>({});
  const [lotOf, setLotOf] = useState<Record<number, number>>({});
  const [files, setFiles] = useState<UploadFile[]>([]);
  const requestReturn = useRequestReturn();
  const sending = requestReturn.isPending;
  const lines = returnLines(chosen, lotOf);
  const quote = useQuery(returnQuoteQuery(info.order_id, lines));
  const reason = Form.useWatch('reason', form) as number | undefined;
  const submit = async (values: { reason: number; description?: string }) => {
    if (!quote.data) return;
    try {
      const photos = pickedFiles(files);
      await requestReturn.mutateAsync({
        order: info.order_id,
        form: returnForm({ lines, reason: values.reason, description: values.description ?? '', refund: quote.data.refund, photos }),
      });
      message.success('已提交退货申请');
      setChosen({});
      setLotOf({});
      setFiles([]);
      form.resetFields();
      await done();
    } catch (error) {
      form.setFields(fieldErrors(error).filter((field) => ['reason', 'description'].includes(field.name)));
    }
  };
  return (
    <Card size="small" title="申请退货" className="member-card" data-testid="return-form">
      <Table<ReturnableLine>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={info.lines}
        columns={[
          { title: '商品', dataIndex: 'name', render: (_: string, line) => <LineGoodsName facts={orderLineFacts(line)} /> },
          { title: '生产厂家', dataIndex: 'sccj' },
          { title: '购买数量', dataIndex: 'number', align: 'right' },
          { title: '实付', dataIndex: 'paid', align: 'right', render: yuan },
          { title: '已退', dataIndex: 'returned', align: 'right' },
          {
            title: '批号',
            key: 'lot',
            render: (_, line) => {
              if (line.lots.length === 0) return <span className="muted">—</span>;
              if (line.lots.length === 1) return `${line.lots[0].lot_no}（有效期至${line.lots[0].expires_on}）`;
              return (
                <Select
                  size="small"
                  placeholder="请选择批号"
                  aria-label={`退回批号 ${line.name}`}
                  value={lotOf[line.id]}
                  onChange={(lot: number) => setLotOf((current) => ({ ...current, [line.id]: lot }))}
                  options={line.lots.map((lot) => ({
                    value: lot.lot_id,
                    label: `${lot.lot_no}（有效期至${lot.expires_on}，可退${lot.shipped - lot.returned}）`,
                  }))}
                  popupMatchSelectWidth={false}
                />
              );
            },
          },
          {
            title: '退货数量',
            key: 'units',
            align: 'right',
            render: (_, line) =>
              line.returnable > 0 ? (
                <InputNumber
                  size="small"
                  min={0}
                  max={line.returnable}
                  precision={0}
                  value={chosen[line.id] ?? 0}
                  aria-label={`退货数量 ${line.name}`}
                  onChange={(units) => setChosen((current) => ({ ...current, [line.id]: Math.min(Number(units ?? 0), line.returnable) }))}
                />
              ) : (
                <span className="muted">不可退</span>
              ),
          },
          {
            title: '退款',
            key: 'refund',
            align: 'right',
            render: (_, line) => {
              const part = quote.data?.lines.find((entry) => entry.id === line.id);
              return part ? yuan(part.refund) : '—';
            },
          },
        ]}
      />
      <Descriptions bordered size="small" column={1} className="order-totals" data-testid="return-quote">
        <Descriptions.Item label="退款金额（退回余额）">
          <strong className="price big" data-testid="return-refund">
            {lines === '' ? '请选择退货数量' : quote.isError ? '—' : quote.data ? yuan(quote.data.refund) : '计算中…'}
          </strong>
        </Descriptions.Item>
        {quote.data && positive(quote.data.red_packet) && (
          <Descriptions.Item label="退回红包">{yuan(quote.data.red_packet)}</Descriptions.Item>
        )}
        {quote.data && quote.data.points_back > 0 && <Descriptions.Item label="退回积分">{quote.data.points_back}</Descriptions.Item>}
        {quote.data && quote.data.points_taken > 0 && <Descriptions.Item label="扣回赠送积分">{quote.data.points_taken}</Descriptions.Item>}
        {quote.data && positive(quote.data.points_deducted) && (
          <Descriptions.Item label="已使用的赠送积分（从退款中扣除）">
            <span data-testid="return-points-deducted">
              {quote.data.points_short}积分，折合{yuan(quote.data.points_deducted)}
            </span>
          </Descriptions.Item>
        )}
        {quote.data && positive(quote.data.cashback_taken) && (
          <Descriptions.Item label="扣回满额返现（从退款中扣除）">
            <span data-testid="return-cashback">{yuan(quote.data.cashback_taken)}</span>
          </Descriptions.Item>
        )}
      </Descriptions>
      {quote.error && <Alert type="error" showIcon message={quote.error.message} />}
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item label="退货原因" name="reason" rules={[{ required: true, message: '请选择退货原因' }]}>
          <Radio.Group options={info.reasons.map((item) => ({ value: item.id, label: item.name }))} />
        </Form.Item>
        <Form.Item label="问题描述" name="description" rules={[{ required: reason === 6, message: '请描述退货原因' }]}>
          <Input.TextArea rows={3} maxLength={500} showCount />
        </Form.Item>
        <PhotoPicker files={files} onChange={setFiles} />
        <Button type="primary" htmlType="submit" loading={sending} disabled={!quote.data}>
          提交退货申请
        </Button>
      </Form>
    </Card>
  );
}

function ReturnCard({ item, refresh }: { item: ReturnRecord; refresh: () => Promise<unknown> }) {
  const { modal, message } = useUi();
  const withdrawReturn = useWithdrawReturn();
  const withdraw = () =>
    modal.confirm({
      title: '温馨提示',
      content: '确定撤销该退货申请吗？',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          await withdrawReturn.mutateAsync(item.id);
          message.success('已撤销退货申请');
          await refresh();
        } catch {
          // Told by the API client.
        }
      },
    });
  return (
    <Card
      size="small"
      className="member-card"
      data-testid="return-record"
      title={
        <Space>
          <span>退货单 {item.return_no}</span>
          <Tag>{item.reason_name}</Tag>
          <Tag color={STATUS_COLOURS[item.status]} data-testid="return-status">
            {item.status_name}
          </Tag>
        </Space>
      }
      extra={item.actions.includes('withdraw') && <Button onClick={withdraw}>撤销申请</Button>}
    >
      <Descriptions size="small" column={2}>
        <Descriptions.Item label="退货商品" span={2}>
          {item.lines
            .map((line) => `${line.name}${line.lot_no ? `（批号${line.lot_no}）` : ''} ×${line.number}（${yuan(line.refund)}）`)
            .join('，')}
        </Descriptions.Item>
        <Descriptions.Item label="退款金额">
          <strong className="price">{yuan(item.refund)}</strong>
          {item.status === 3 ? '（已退回余额）' : ''}
        </Descriptions.Item>
        <Descriptions.Item label="申请时间">{formatTime(item.created_at)}</Descriptions.Item>
        {positive(item.red_packet) && <Descriptions.Item label="退回红包">{yuan(item.red_packet)}</Descriptions.Item>}
        {item.points_back > 0 && <Descriptions.Item label="退回积分">{item.points_back}</Descriptions.Item>}
        {item.points_taken > 0 && <Descriptions.Item label="扣回赠送积分">{item.points_taken}</Descriptions.Item>}
        {positive(item.points_deducted) && (
          <Descriptions.Item label="已使用的赠送积分（从退款中扣除）">
            {item.points_short}积分，折合{yuan(item.points_deducted)}
          </Descriptions.Item>
        )}
        {positive(item.cashback_taken) && <Descriptions.Item label="扣回满额返现">{yuan(item.cashback_taken)}</Descriptions.Item>}
        {item.description && (
          <Descriptions.Item label="问题描述" span={2}>
            {item.description}
          </Descriptions.Item>
        )}
        {item.operator_note && (
          <Descriptions.Item label="商家说明" span={2}>
            {item.operator_note}
          </Descriptions.Item>
        )}
        {item.refunded_at && <Descriptions.Item label="退款时间">{formatTime(item.refunded_at)}</Descriptions.Item>}
      </Descriptions>
      {item.photos.length > 0 && (
        <Image.PreviewGroup>
          <Space>
            {item.photos.map((photo) => (
              <Image key={photo} src={photo} width={72} height={72} />
            ))}
          </Space>
        </Image.PreviewGroup>
      )}
    </Card>
  );
}

export function ReturnPage() {
  const id = Number(useParams().id);
  const returns = useQuery(returnsQuery(id));
  const refresh = () => returns.refetch();
  const back = <Link to={`/order/info/${id}`}>返回订单详情</Link>;
  if (!(id > 0) || returns.isError)
    return (
      <MemberLayout title="退货详情">
        <Result status="404" title="订单不存在" extra={<Link to="/order">返回我的订单</Link>} />
      </MemberLayout>
    );
  const info = returns.data;
  return (
    <MemberLayout title="退货详情" extra={back}>
      {!info ? (
        <Skeleton active />
      ) : (
        <div data-testid="return-page">
          <p className="hint">
            订单号 {info.order_no} · {info.status_name}
            {positive(info.refunded) && ` · 已退款 ${yuan(info.refunded)}`}
          </p>
          {info.can_return ? (
            <RequestForm info={info} done={refresh} />
          ) : (
            info.refusal && <Alert type="info" showIcon message={info.refusal} className="member-card" />
          )}
          {info.returns.length === 0 ? (
            <Empty description="该订单还没有退货申请" />
          ) : (
            info.returns.map((item) => <ReturnCard key={item.id} item={item} refresh={refresh} />)
          )}
        </div>
      )}
    </MemberLayout>
  );
}
