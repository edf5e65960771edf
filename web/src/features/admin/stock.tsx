// 批号入库: the warehouse finds a goods (by id, name, manufacturer or approval number), sees its
// lots earliest expiry first (the order shipments take them), receives a lot with its dates and
// its inspection report (质检报告), and keeps a report for a lot received before.
import { useState } from 'react';
import { Button, Card, DatePicker, Form, Input, InputNumber, Space, Table, Tag, Upload } from 'antd';
import type { Dayjs } from 'dayjs';
import { useFilters } from './filters';
import { can, useGoodsLots, useKeepReport, useReceiveLot, useStockGoods, type OperatorMe, type StockGoods } from './api';

type Lot = NonNullable<ReturnType<typeof useGoodsLots>['data']>['lots'][number];

interface ReceiveValues {
  lot_no: string;
  produced_on: Dayjs;
  expires_on: Dayjs;
  quantity: number;
}

export function StockPage({ me }: { me: OperatorMe }) {
  const [filters, setFilters] = useFilters(['keyword', 'goods']);
  const keyword = String(filters.keyword ?? '');
  const goodsId = filters.goods ? Number(filters.goods) : null;
  const found = useStockGoods(keyword);
  return (
    <div data-testid="admin-stock">
      <Space className="console-filters">
        <Input.Search
          aria-label="查找商品"
          placeholder="商品ID、名称、厂家或批准文号"
          defaultValue={keyword}
          allowClear
          enterButton="查找"
          style={{ width: 380 }}
          onSearch={(value) => setFilters({ keyword: value.trim() || undefined, goods: undefined })}
        />
      </Space>
      {keyword && goodsId === null && (
        <Table<StockGoods>
          rowKey="id"
          size="small"
          loading={found.isFetching}
          dataSource={found.data ?? []}
          pagination={false}
          columns={[
            { title: 'ID', dataIndex: 'id' },
            { title: '商品', dataIndex: 'name' },
            { title: '规格', dataIndex: 'ypgg' },
            { title: '厂家', dataIndex: 'sccj' },
            { title: '批准文号', dataIndex: 'pzwh' },
            { title: '库存', dataIndex: 'stock', align: 'right' },
            {
              title: '操作',
              render: (_, row) => (
                <Button type="link" onClick={() => setFilters({ keyword, goods: String(row.id) })}>
                  查看批号
                </Button>
              ),
            },
          ]}
        />
      )}
      {goodsId !== null && <GoodsLotsView goods={goodsId} me={me} onBack={() => setFilters({ keyword, goods: undefined })} />}
    </div>
  );
}

function GoodsLotsView({ goods, me, onBack }: { goods: number; me: OperatorMe; onBack: () => void }) {
  const lots = useGoodsLots(goods);
  const receive = useReceiveLot(goods);
  const keep = useKeepReport();
  const [form] = Form.useForm<ReceiveValues>();
  const [replacing, setReplacing] = useState<number | null>(null);
  const [report, setReport] = useState<File | null>(null);
  const mayReceive = can(me, 'stock');
  const info = lots.data?.goods;
  const submit = (values: ReceiveValues) => {
    const body = new FormData();
    body.set('lot_no', values.lot_no.trim());
    body.set('produced_on', values.produced_on.format('YYYY-MM-DD'));
    body.set('expires_on', values.expires_on.format('YYYY-MM-DD'));
    body.set('quantity', String(values.quantity));
    if (report) body.set('report', report, report.name);
    return receive.mutateAsync(body).then(() => {
      form.resetFields();
      setReport(null);
    });
  };
  const upload = (lot: number, file: File) => {
    const body = new FormData();
    body.set('report', file, file.name);
    setReplacing(lot);
    keep.mutate({ lot, form: body }, { onSettled: () => setReplacing(null) });
    return false;
  };
  return (
    <>
      <Card
        className="console-card"
        loading={lots.isPending}
        title={info ? `${info.name} ${info.ypgg}（ID ${info.id}）` : '商品'}
        extra={<Button onClick={onBack}>返回查找结果</Button>}
      >
        {info && (
          <Space size="large" data-testid="stock-goods">
            <span>厂家：{info.sccj}</span>
            <span>批准文号：{info.pzwh || '—'}</span>
            <span data-testid="stock-count">可售库存：{info.stock}</span>
            <span>近效期：{info.expires_on || '—'}</span>
          </Space>
        )}
      </Card>
      <Card className="console-card" title="批号（近效期先出）">
        <Table<Lot>
          rowKey="id"
          size="small"
          loading={lots.isFetching}
          dataSource={lots.data?.lots ?? []}
          pagination={false}
          columns={[
            { title: '批号', dataIndex: 'lot_no' },
            { title: '生产日期', dataIndex: 'produced_on' },
            { title: '有效期至', dataIndex: 'expires_on' },
            { title: '入库数量', dataIndex: 'received', align: 'right' },
            { title: '在库数量', dataIndex: 'quantity', align: 'right' },
            {
              title: '质检报告',
              render: (_, row) => (
                <Space>
                  {row.has_report ? (
                    <a href={`/api/admin/lots/${row.id}/report`} target="_blank" rel="noreferrer">
                      查看
                    </a>
                  ) : (
                    <Tag>未上传</Tag>
                  )}
                  {mayReceive && (
                    <Upload accept=".pdf,.jpg,.jpeg,.png" showUploadList={false} beforeUpload={(file) => upload(row.id, file)}>
                      <Button size="small" loading={replacing === row.id}>
                        {row.has_report ? '更换' : '上传'}
                      </Button>
                    </Upload>
                  )}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      {mayReceive && (
        <Card className="console-card" title="入库">
          <Form form={form} layout="inline" onFinish={submit} aria-label="入库">
            <Form.Item name="lot_no" label="批号" rules={[{ required: true, whitespace: true, message: '请填写批号' }]}>
              <Input maxLength={40} style={{ width: 140 }} />
            </Form.Item>
            <Form.Item name="produced_on" label="生产日期" rules={[{ required: true, message: '请选择生产日期' }]}>
              <DatePicker />
            </Form.Item>
            <Form.Item name="expires_on" label="有效期至" rules={[{ required: true, message: '请选择有效期' }]}>
              <DatePicker />
            </Form.Item>
            <Form.Item name="quantity" label="数量" rules={[{ required: true, message: '请填写数量' }]}>
              <InputNumber min={1} precision={0} />
            </Form.Item>
            <Form.Item label="质检报告">
              <Upload
                accept=".pdf,.jpg,.jpeg,.png"
                maxCount={1}
                fileList={report ? [{ uid: 'report', name: report.name, status: 'done' }] : []}
                beforeUpload={(file) => {
                  setReport(file);
                  return false;
                }}
                onRemove={() => setReport(null)}
              >
                <Button>选择文件</Button>
              </Upload>
            </Form.Item>
            <Form.Item>
              <Button type="primary" htmlType="submit" loading={receive.isPending}>
                入库
              </Button>
            </Form.Item>
          </Form>
        </Card>
      )}
    </>
  );
}
