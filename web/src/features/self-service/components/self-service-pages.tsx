// 自助服务 (/zzfw): 快速采购 (/zzfw/kjcg: what the member bought before, at today's prices,
// several into the cart at once) and 品种求购 (/zzfw/pzqg list, /zzfw/pzqg/add, /zzfw/pzqg/info).
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Button, Descriptions, Form, Input, InputNumber, Result, Segmented, Skeleton, Table, Tag } from 'antd';
import type { Bought, Wanted, WantedForm } from '@/api/types';
import { useAddLines } from '@/api/cart';
import { yuan } from '@/lib/money';
import { formatTime } from '@/lib/time';
import { currentPrice, stockClass } from '@/components/goods';
import { Price } from '@/components/price';
import { fieldErrors } from '@/lib/field-errors';
import { MemberLayout } from '@/components/member-layout';
import { boughtQuery, chosenLines, useAddWanted, wantedListQuery, wantedQuery } from '../api';
import { useUi } from '@/lib/ui';

export { FeedbackPage } from './feedback-page';

/** 快速采购 (/zzfw/kjcg). */
export function QuickPurchasePage() {
  const [page, setPage] = useState(1);
  const [order, setOrder] = useState<'recent' | 'often'>('recent');
  const bought = useQuery(boughtQuery(page, order));
  const [chosen, setChosen] = useState<number[]>([]);
  const [numbers, setNumbers] = useState<Record<number, number>>({});
  const addLines = useAddLines();
  const adding = addLines.isPending;
  const { message } = useUi();
  const add = async () => {
    const added = await addLines.mutateAsync(chosenLines(chosen, numbers));
    if (added > 0) {
      message.success(`已将${added}种商品加入购物车`);
      setChosen([]);
    }
  };
  return (
    <MemberLayout
      title="快速采购"
      extra={
        <Segmented
          value={order}
          options={[
            { label: '最近采购', value: 'recent' },
            { label: '采购最多', value: 'often' },
          ]}
          onChange={(value) => {
            setOrder(value as 'recent' | 'often');
            setPage(1);
          }}
        />
      }
    >
      {!bought.data ? (
        <Skeleton active />
      ) : (
        <>
          <Table<Bought>
            rowKey={(row) => row.goods.id}
            size="small"
            data-testid="bought"
            dataSource={bought.data.list}
            locale={{ emptyText: '暂无采购记录' }}
            rowSelection={{
              selectedRowKeys: chosen,
              onChange: (keys) => setChosen(keys as number[]),
              getCheckboxProps: (row) => ({ disabled: row.goods.is_buy !== 1 || row.goods.number <= 0, name: row.goods.name }),
            }}
            pagination={{
              current: page,
              pageSize: 20,
              total: bought.data.total,
              onChange: setPage,
              showSizeChanger: false,
              hideOnSinglePage: true,
            }}
            columns={[
              { title: '商品名称', key: 'name', render: (_, row) => <Link to={`/list/info/${row.goods.id}`}>{row.goods.name}</Link> },
              { title: '规格', key: 'ypgg', width: 120, render: (_, row) => row.goods.ypgg },
              { title: '生产厂家', key: 'sccj', width: 180, render: (_, row) => row.goods.sccj },
              {
                title: '上次采购',
                key: 'last',
                width: 150,
                render: (_, row) => `${yuan(row.last_price)} · ${formatTime(row.last_at).slice(0, 10)}`,
              },
              {
                title: '今日价格',
                key: 'price',
                width: 90,
                align: 'right',
                render: (_, row) => <Price price={currentPrice(row.goods)} text={row.goods.price_text} />,
              },
              { title: '采购次数', dataIndex: 'times', width: 80, align: 'right' },
              {
                title: '库存',
                key: 'stock',
                width: 70,
                render: (_, row) => <span className={stockClass(row.goods)}>{row.goods.stock_state}</span>,
              },
              {
                title: '数量',
                key: 'number',
                width: 100,
                render: (_, row) => (
                  <InputNumber
                    size="small"
                    min={1}
                    max={Math.max(1, row.goods.number)}
                    value={numbers[row.goods.id] ?? 1}
                    aria-label={`${row.goods.name} 数量`}
                    onChange={(value) => setNumbers((all) => ({ ...all, [row.goods.id]: value ?? 1 }))}
                  />
                ),
              },
            ]}
          />
          <div className="quick-buy-bar">
            <span>已选 {chosen.length} 种</span>
            <Button type="primary" disabled={chosen.length === 0} loading={adding} onClick={() => void add()}>
              加入购物车
            </Button>
          </div>
        </>
      )}
    </MemberLayout>
  );
}

const STATUS_COLOURS = ['orange', 'green', 'default'];

/** 品种求购 (/zzfw/pzqg). */
export function WantedListPage() {
  const [page, setPage] = useState(1);
  const wanted = useQuery(wantedListQuery(page));
  return (
    <MemberLayout
      title="品种求购"
      extra={
        <Link to="/zzfw/pzqg/add">
          <Button type="primary">添加求购</Button>
        </Link>
      }
    >
      {!wanted.data ? (
        <Skeleton active />
      ) : (
        <Table<Wanted>
          rowKey="id"
          size="small"
          data-testid="wanted-list"
          dataSource={wanted.data.list}
          locale={{ emptyText: '暂无求购记录' }}
          pagination={{
            current: page,
            pageSize: 20,
            total: wanted.data.total,
            onChange: setPage,
            showSizeChanger: false,
            hideOnSinglePage: true,
          }}
          columns={[
            {
              title: '品种名称',
              dataIndex: 'name',
              render: (name: string, row) => <Link to={`/zzfw/pzqg/info?id=${row.id}`}>{name}</Link>,
            },
            { title: '生产厂家', dataIndex: 'sccj', width: 180 },
            { title: '规格', dataIndex: 'ypgg', width: 120 },
            { title: '数量', dataIndex: 'number', width: 80, align: 'right' },
            { title: '提交时间', dataIndex: 'created_at', width: 160, render: (at: number) => formatTime(at) },
            {
              title: '状态',
              key: 'status',
              width: 100,
              render: (_, row) => <Tag color={STATUS_COLOURS[row.status]}>{row.status_name}</Tag>,
            },
          ]}
        />
      )}
    </MemberLayout>
  );
}

/** 添加求购 (/zzfw/pzqg/add). */
export function WantedAddPage() {
  const [form] = Form.useForm();
  const navigate = useNavigate();
  const { message } = useUi();
  const addWanted = useAddWanted();
  const busy = addWanted.isPending;
  const save = async (values: WantedForm) => {
    try {
      const added = await addWanted.mutateAsync(values);
      message.success('已提交求购，我们会尽快为您采购');
      navigate(`/zzfw/pzqg/info?id=${added.id}`);
    } catch (error) {
      form.setFields(fieldErrors(error));
    }
  };
  return (
    <MemberLayout title="添加求购">
      <Form
        form={form}
        layout="horizontal"
        labelCol={{ span: 4 }}
        wrapperCol={{ span: 12 }}
        initialValues={{ number: 1 }}
        onFinish={(values) => void save(values)}
      >
        <Form.Item label="品种名称" name="name" rules={[{ required: true, whitespace: true, message: '请填写品种名称' }]}>
          <Input maxLength={50} placeholder="通用名或商品名" />
        </Form.Item>
        <Form.Item label="生产厂家" name="sccj">
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item label="规格" name="ypgg">
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item label="求购数量" name="number" rules={[{ required: true, message: '请填写求购数量' }]}>
          <InputNumber min={1} max={1000000} precision={0} />
        </Form.Item>
        <Form.Item label="备注" name="remark">
          <Input.TextArea rows={3} maxLength={200} showCount />
        </Form.Item>
        <Form.Item wrapperCol={{ offset: 4 }}>
          <Button type="primary" htmlType="submit" loading={busy}>
            提交求购
          </Button>
        </Form.Item>
      </Form>
    </MemberLayout>
  );
}

/** 求购详情 (/zzfw/pzqg/info?id=). */
export function WantedInfoPage() {
  const [params] = useSearchParams();
  const wanted = useQuery(wantedQuery(Number(params.get('id'))));
  return (
    <MemberLayout title="求购详情" extra={<Link to="/zzfw/pzqg">返回求购列表</Link>}>
      {wanted.isError || !(Number(params.get('id')) > 0) ? (
        <Result status="404" title="求购记录不存在" />
      ) : !wanted.data ? (
        <Skeleton active />
      ) : (
        <Descriptions bordered size="small" column={2} data-testid="wanted-info">
          <Descriptions.Item label="品种名称">{wanted.data.name}</Descriptions.Item>
          <Descriptions.Item label="状态">
            <Tag color={STATUS_COLOURS[wanted.data.status]}>{wanted.data.status_name}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label="生产厂家">{wanted.data.sccj || '—'}</Descriptions.Item>
          <Descriptions.Item label="规格">{wanted.data.ypgg || '—'}</Descriptions.Item>
          <Descriptions.Item label="求购数量">{wanted.data.number}</Descriptions.Item>
          <Descriptions.Item label="提交时间">{formatTime(wanted.data.created_at)}</Descriptions.Item>
          <Descriptions.Item label="备注" span={2}>
            {wanted.data.remark || '—'}
          </Descriptions.Item>
          <Descriptions.Item label="商城回复" span={2}>
            {wanted.data.reply ? `${wanted.data.reply}（${formatTime(wanted.data.replied_at ?? 0)}）` : '等待处理'}
          </Descriptions.Item>
        </Descriptions>
      )}
    </MemberLayout>
  );
}
