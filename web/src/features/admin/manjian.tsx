// 满减 activities (docs/backoffice.md, "Promotions"): the list with where each stands, and an
// activity's form — its title, schedule, tiers as rows and goods found by name — with a preview
// the engine prices on a sample cart before anything is saved. Goods already in another
// activity are named, and move only when the operator says so.
import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  DatePicker,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Result,
  Select,
  Space,
  Spin,
  Table,
  Tag,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '@/lib/api-client';
import { PERIOD, showOnFields, wholeRefusal } from './form-refusals';
import { useGoodsChoices, type Choice } from './goods-choices';
import { ScheduledActions, StateTag } from './scheduled';
import { periodColumn, stateColumn } from './scheduled-columns';
import {
  can,
  useEndManjian,
  useManjian,
  useManjianList,
  usePreviewManjian,
  useSaveManjian,
  type ManjianDraft,
  type ManjianPreview,
  type ManjianRow,
  type OperatorMe,
} from './api';
import { Money } from './console';

export function ManjianPage({ me }: { me: OperatorMe }) {
  const list = useManjianList();
  const end = useEndManjian();
  const mayChange = can(me, 'promotions');
  return (
    <Card
      className="console-card"
      title="满减活动"
      extra={mayChange && <Link to="/admin/manjian/new">新增活动</Link>}
      data-testid="admin-manjian"
    >
      <Table<ManjianRow>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: '编号', dataIndex: 'id', width: 70 },
          { title: '活动名称', dataIndex: 'title', render: (title: string, row) => <Link to={`/admin/manjian/${row.id}`}>{title}</Link> },
          { title: '满减', dataIndex: 'tiers' },
          { title: '商品数', dataIndex: 'goods', width: 80 },
          periodColumn<ManjianRow>(),
          stateColumn<ManjianRow>(),
          {
            title: '操作',
            key: 'actions',
            render: (_, row) =>
              mayChange && (
                <ScheduledActions state={row.state} ask="结束后买家不再享受此满减，确定结束？" onEnd={() => end.mutateAsync(row.id)} />
              ),
          },
        ]}
      />
    </Card>
  );
}

interface FormValues {
  title: string;
  period: [Dayjs, Dayjs];
  tiers: { amount?: string; reduce?: string }[];
  goods: number[];
}

interface SampleLine {
  goods: number;
  quantity: number;
}

/** The form's values as the origin takes them. */
function draftOf(values: FormValues): ManjianDraft {
  const [start, end] = values.period ?? [];
  return {
    title: values.title ?? '',
    starts_at: start ? start.unix() : 0,
    ends_at: end ? end.unix() : 0,
    tiers: (values.tiers ?? [])
      .filter((tier) => (tier.amount ?? '').trim() !== '' || (tier.reduce ?? '').trim() !== '')
      .map((tier) => `${(tier.amount ?? '').trim()}:${(tier.reduce ?? '').trim()}`)
      .join(','),
    goods: (values.goods ?? []).join(','),
  };
}

export function ManjianFormPage({ me }: { me: OperatorMe }) {
  const params = useParams();
  const id = params.id === 'new' ? null : Number(params.id);
  const record = useManjian(id);
  const save = useSaveManjian(id);
  const preview = usePreviewManjian();
  const navigate = useNavigate();
  const [form] = Form.useForm<FormValues>();
  const [sample, setSample] = useState<SampleLine[] | null>(null);
  const [moveGoods, setMoveGoods] = useState(false);
  const own = useMemo(
    () => new Map((record.data?.goods ?? []).map((goods) => [goods.id, `${goods.id} ${goods.name} ${goods.ypgg}`] as const)),
    [record.data],
  );
  const choices = useGoodsChoices(own);
  const ended = record.data?.state === '已结束';
  const mayChange = can(me, 'promotions') && !ended;
  const chosen = Form.useWatch('goods', form);

  useEffect(() => {
    if (id === null) {
      form.setFieldsValue({ period: [dayjs().startOf('minute'), dayjs().add(7, 'day').endOf('day')], tiers: [{}], goods: [] });
      return;
    }
    const data = record.data;
    if (!data) return;
    form.setFieldsValue({
      title: data.title,
      period: [dayjs.unix(data.starts_at), dayjs.unix(data.ends_at)],
      tiers: data.tiers.map((tier) => ({ amount: tier.amount, reduce: tier.reduce })),
      goods: data.goods.map((goods) => goods.id),
    });
  }, [id, record.data, form]);

  if (id !== null && record.error) {
    const message = record.error instanceof ApiError ? record.error.message : '满减活动不存在';
    return <Result status="404" title={message} extra={<Link to="/admin/manjian">返回满减活动</Link>} />;
  }
  if (id !== null && record.isPending) return <Spin />;

  // The sample cart: as the operator set it, or the first three goods chosen, ten of each.
  const lines: SampleLine[] = sample ?? (chosen ?? []).slice(0, 3).map((goods) => ({ goods, quantity: 10 }));

  const showFieldErrors = (error: unknown) => showOnFields(form, error, PERIOD);

  const runPreview = async () => {
    const values = form.getFieldsValue(true) as FormValues;
    preview.reset();
    try {
      await preview.mutateAsync({
        ...draftOf(values),
        ...(id === null ? {} : { id }),
        sample: lines.map((line) => `${line.goods}:${line.quantity}`).join(','),
      });
    } catch (error) {
      showFieldErrors(error);
    }
  };

  const submit = async (values: FormValues) => {
    try {
      const saved = await save.mutateAsync({ ...draftOf(values), move_goods: moveGoods ? 1 : 0 });
      setMoveGoods(false);
      if (id === null) navigate(`/admin/manjian/${saved.id}`, { replace: true });
    } catch (error) {
      if (!showFieldErrors(error)) void runPreview();
    }
  };

  const conflict = save.error instanceof ApiError && save.error.status === 409 ? save.error.message : null;
  const otherError = !conflict && wholeRefusal(save.error) !== null;
  return (
    <div data-testid="manjian-form">
      <Card
        className="console-card"
        title={id === null ? '新增满减活动' : `满减活动 ${id}`}
        extra={
          <Space>
            {record.data && <StateTag state={record.data.state} />}
            <Link to="/admin/manjian">返回满减活动</Link>
          </Space>
        }
      >
        {otherError && <Alert type="error" showIcon message={save.error?.message} style={{ marginBottom: 16 }} />}
        {save.isSuccess && !save.isPending && (
          <Alert type="success" showIcon data-testid="manjian-saved" message="已保存" style={{ marginBottom: 16 }} />
        )}
        {conflict && (
          <Alert
            type="warning"
            showIcon
            data-testid="manjian-conflict"
            style={{ marginBottom: 16 }}
            message={conflict}
            description={
              <Checkbox checked={moveGoods} onChange={(event) => setMoveGoods(event.target.checked)}>
                移入本活动（这些商品将退出原活动）
              </Checkbox>
            }
          />
        )}
        <Form<FormValues> form={form} layout="vertical" disabled={!mayChange} onFinish={(values) => void submit(values)}>
          <Form.Item name="title" label="活动名称" rules={[{ required: true, message: '请填写活动名称' }]}>
            <Input maxLength={30} style={{ maxWidth: 420 }} />
          </Form.Item>
          <Form.Item name="period" label="活动时间" rules={[{ required: true, message: '请选择活动时间' }]}>
            <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" />
          </Form.Item>
          <Form.List name="tiers">
            {(rows, { add, remove }, { errors }) => (
              <Form.Item label="满减档位" required>
                {rows.map((row, index) => (
                  <Space key={row.key} align="baseline" style={{ display: 'flex' }}>
                    <Form.Item name={[row.name, 'amount']} noStyle>
                      <Input addonBefore="满" suffix="元" aria-label={`第${index + 1}档门槛`} style={{ width: 170 }} />
                    </Form.Item>
                    <Form.Item name={[row.name, 'reduce']} noStyle>
                      <Input addonBefore="减" suffix="元" aria-label={`第${index + 1}档减额`} style={{ width: 170 }} />
                    </Form.Item>
                    {rows.length > 1 && (
                      <Button type="link" onClick={() => remove(row.name)}>
                        删除
                      </Button>
                    )}
                  </Space>
                ))}
                {rows.length < 5 && (
                  <Button type="dashed" onClick={() => add({})} style={{ marginTop: 8 }}>
                    添加一档
                  </Button>
                )}
                <Form.ErrorList errors={errors} />
              </Form.Item>
            )}
          </Form.List>
          <Form.Item name="goods" label="参加商品" rules={[{ required: true, message: '请选择参加活动的商品' }]}>
            <Select
              mode="multiple"
              showSearch
              filterOption={false}
              onSearch={choices.setSearch}
              loading={choices.loading}
              options={choices.options}
              aria-label="参加商品"
              placeholder="输入商品ID或名称查找"
              onChange={choices.remember}
            />
          </Form.Item>
          {mayChange && (
            <Space>
              <Button type="primary" htmlType="submit" loading={save.isPending}>
                {id === null ? '新增活动' : '保存活动'}
              </Button>
              <Button onClick={() => void runPreview()} loading={preview.isPending}>
                试算
              </Button>
            </Space>
          )}
        </Form>
      </Card>
      <Card className="console-card" title="试算：样例购物车" data-testid="manjian-preview">
        <SampleEditor lines={lines} options={choices.options} onSearch={choices.setSearch} onPick={choices.remember} onChange={setSample} />
        {wholeRefusal(preview.error) && <Alert type="error" showIcon message={wholeRefusal(preview.error)} style={{ marginTop: 12 }} />}
        {preview.data && <PreviewResult preview={preview.data} />}
      </Card>
    </div>
  );
}

function SampleEditor({
  lines,
  options,
  onSearch,
  onPick,
  onChange,
}: {
  lines: SampleLine[];
  options: Choice[];
  onSearch: (text: string) => void;
  onPick: (goods: number) => void;
  onChange: (lines: SampleLine[]) => void;
}) {
  const [adding, setAdding] = useState<number | null>(null);
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {lines.map((line, index) => (
        <Space key={`${line.goods}-${index}`}>
          <span style={{ display: 'inline-block', minWidth: 320 }}>
            {options.find((option) => option.value === line.goods)?.label ?? line.goods}
          </span>
          <InputNumber
            min={1}
            max={99999}
            value={line.quantity}
            aria-label={`试算数量 ${line.goods}`}
            onChange={(quantity) =>
              onChange(lines.map((other, at) => (at === index ? { ...other, quantity: Number(quantity) || 1 } : other)))
            }
          />
          <Button type="link" onClick={() => onChange(lines.filter((_, at) => at !== index))}>
            移除
          </Button>
        </Space>
      ))}
      <Space>
        <Select
          showSearch
          filterOption={false}
          onSearch={onSearch}
          options={options}
          value={adding}
          onChange={setAdding}
          placeholder="加入其他商品试算"
          aria-label="加入试算商品"
          style={{ width: 320 }}
        />
        <Button
          disabled={adding === null}
          onClick={() => {
            if (adding !== null) {
              onPick(adding);
              onChange([...lines, { goods: adding, quantity: 1 }]);
            }
            setAdding(null);
          }}
        >
          加入
        </Button>
      </Space>
    </Space>
  );
}

function PreviewResult({ preview }: { preview: ManjianPreview }) {
  const { quote } = preview;
  const rows = preview.lines.map((line, index) => ({ ...line, priced: quote.lines[index] }));
  return (
    <div data-testid="manjian-preview-result" style={{ marginTop: 16 }}>
      {preview.conflicts.length > 0 && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          message={`${preview.conflicts.length}个商品已在其他满减活动中`}
          description={preview.conflicts.map((conflict) => `${conflict.goods_name}（${conflict.activity_title}）`).join('、')}
        />
      )}
      <Table
        rowKey={(row) => `${row.goods_id}-${row.priced?.id}`}
        size="small"
        pagination={false}
        dataSource={rows}
        columns={[
          { title: '商品', dataIndex: 'name', render: (name: string, row) => `${name} ${row.ypgg}` },
          { title: '参加活动', dataIndex: 'in_activity', render: (inside: boolean) => (inside ? '是' : '否') },
          { title: '数量', dataIndex: 'quantity' },
          { title: '单价', key: 'unit', render: (_, row) => <Money value={row.priced?.unit_price} /> },
          { title: '金额', key: 'amount', render: (_, row) => <Money value={row.priced?.amount} /> },
          { title: '满减分摊', key: 'share', render: (_, row) => <Money value={row.priced?.goods_manjian_amount} /> },
        ]}
      />
      <Descriptions size="small" column={4} style={{ marginTop: 12 }}>
        <Descriptions.Item label="商品金额">
          <Money value={quote.totals.total} />
        </Descriptions.Item>
        <Descriptions.Item label="活动商品金额">
          <Money value={quote.totals.manjian} />
        </Descriptions.Item>
        <Descriptions.Item label="满减">
          <span data-testid="preview-discount">
            <Money value={quote.totals.discount} />
          </span>
        </Descriptions.Item>
        <Descriptions.Item label="应付">
          <span data-testid="preview-payable">
            <Money value={quote.totals.payable} />
          </span>
        </Descriptions.Item>
      </Descriptions>
      <Space wrap>
        {quote.manjian_tiers.map((tier) => (
          <Tag key={tier.amount} color={tier.status === 1 ? 'green' : 'default'}>
            满{tier.amount}减{tier.reduce}：{tier.status === 1 ? '已达到' : `还差¥${tier.need}`}
          </Tag>
        ))}
      </Space>
    </div>
  );
}
