// 新增商品 and a goods' page: every field the shop shows, laid out from the origin's own list of
// fields (labels, kinds, choices, limits: `GET /api/admin/goods/fields`), the ladder as rows of
// quantity and unit price. A new goods sends every field; a goods changed sends only the fields
// that changed (a partial update), and the page shows what changed, the stock received by lot
// and the price history, and its pictures (`goods-pictures.tsx`). Each refusal shows on its field, in the origin's words.
import { useEffect, useMemo } from 'react';
import { Alert, Button, Card, Form, Input, InputNumber, Result, Select, Space, Spin, Switch, Table } from 'antd';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '@/lib/api-client';
import { formatTime } from '@/lib/time';
import { can, useGoodsFormSpec, useGoodsRecord, useSaveGoods, type GoodsFieldSpec, type OperatorMe } from './api';
import { Money } from './console';
import { GoodsPictures } from './goods-pictures';

type FormValue = string | number | boolean | { number?: number | null; price?: string }[] | null | undefined;
type FormValues = Record<string, FormValue>;

/** A field's text (as the origin sends and takes it) as the form holds it. */
function toForm(spec: GoodsFieldSpec, text: string): FormValue {
  switch (spec.kind) {
    case 'flag':
      return text === '1';
    case 'choice':
    case 'id':
      return text === '' || (spec.name === 'brand_id' && text === '0') ? undefined : Number(text);
    case 'ladder':
      return text
        .split(',')
        .filter(Boolean)
        .map((step) => {
          const [number, price] = step.split(':');
          return { number: Number(number), price };
        });
    default:
      return text;
  }
}

/** The form's value of a field as the origin takes it. */
function toText(spec: GoodsFieldSpec, value: FormValue): string {
  if (spec.kind === 'flag') return value ? '1' : '0';
  if (spec.kind === 'ladder') {
    const steps = Array.isArray(value) ? value : [];
    return steps
      .filter((step) => step.number !== undefined && step.number !== null && (step.price ?? '').trim() !== '')
      .map((step) => `${step.number}:${(step.price ?? '').trim()}`)
      .join(',');
  }
  if (value === undefined || value === null) return spec.name === 'brand_id' ? '0' : '';
  return String(value);
}

interface FieldInputProps {
  spec: GoodsFieldSpec;
  categories: { value: number; label: string }[];
  brands: { value: number; label: string }[];
  // Given by the Form.Item around it, and handed to the control.
  value?: never;
  checked?: never;
  onChange?: never;
}

function FieldInput({ spec, categories, brands, ...control }: FieldInputProps) {
  switch (spec.kind) {
    case 'flag':
      return <Switch aria-label={spec.label} {...control} />;
    case 'choice':
      return (
        <Select
          aria-label={spec.label}
          options={spec.choices.map((choice) => ({ value: choice.value, label: choice.label }))}
          {...control}
        />
      );
    case 'id':
      return (
        <Select
          aria-label={spec.label}
          showSearch={{ optionFilterProp: 'label' }}
          allowClear={!spec.required}
          options={spec.name === 'category_id' ? categories : brands}
          {...control}
        />
      );
    case 'int':
      return <InputNumber aria-label={spec.label} min={0} precision={0} style={{ width: '100%' }} {...control} />;
    case 'text':
      return spec.max > 200 ? (
        <Input.TextArea aria-label={spec.label} rows={6} maxLength={spec.max} {...control} />
      ) : (
        <Input aria-label={spec.label} maxLength={spec.max} {...control} />
      );
    default:
      return <Input aria-label={spec.label} prefix={spec.kind === 'money' ? '¥' : undefined} {...control} />;
  }
}

function LadderInput() {
  return (
    <Form.List name="ladder">
      {(rows, { add, remove }, { errors }) => (
        <div data-testid="ladder-rows">
          {rows.map((row, at) => (
            <Space key={row.key} align="baseline">
              <Form.Item name={[row.name, 'number']} noStyle>
                <InputNumber aria-label={`第${at + 1}档数量`} min={2} precision={0} placeholder="数量" addonAfter="件起" />
              </Form.Item>
              <Form.Item name={[row.name, 'price']} noStyle>
                <Input aria-label={`第${at + 1}档单价`} prefix="¥" placeholder="单价" style={{ width: 140 }} />
              </Form.Item>
              <Button type="link" onClick={() => remove(row.name)}>
                删除
              </Button>
            </Space>
          ))}
          <Button type="dashed" onClick={() => add({})} disabled={rows.length >= 10}>
            添加一档
          </Button>
          <Form.ErrorList errors={errors} />
        </div>
      )}
    </Form.List>
  );
}

export function GoodsFormPage({ me }: { me: OperatorMe }) {
  const { id: param = 'new' } = useParams();
  const id = param === 'new' ? null : Number(param);
  const navigate = useNavigate();
  const spec = useGoodsFormSpec();
  const record = useGoodsRecord(id);
  const save = useSaveGoods(id);
  const [form] = Form.useForm<FormValues>();
  const mayChange = can(me, 'catalogue');
  const fields = useMemo(() => spec.data?.fields ?? [], [spec.data]);
  const categories = (spec.data?.categories ?? []).map((category) => ({ value: category.id, label: category.path }));
  const brands = (spec.data?.brands ?? []).map((brand) => ({ value: brand.id, label: brand.name }));
  // What the form started from (the goods' fields, or a new goods' defaults), as text.
  const initial = useMemo(() => {
    if (id !== null) return record.data?.fields ?? null;
    const defaults: Record<string, string> = { zbz: '1', jzl: '0', type: '1', scope_class: '1', dispensing: '0', vat_rate: '13' };
    Object.assign(defaults, { ladder_price_type: '2', is_buy: '1', is_youx: '0', is_dpby: '0', brand_id: '0' });
    return defaults;
  }, [id, record.data]);
  useEffect(() => {
    if (!initial || fields.length === 0) return;
    form.resetFields();
    form.setFieldsValue(Object.fromEntries(fields.map((field) => [field.name, toForm(field, initial[field.name] ?? '')])));
  }, [initial, fields, form]);

  if (id !== null && record.error) {
    const message = record.error instanceof ApiError ? record.error.message : '商品不存在';
    return <Result status="404" title={message} extra={<Link to="/admin/goods">返回商品列表</Link>} />;
  }
  if (spec.isPending || (id !== null && record.isPending)) return <Spin />;

  const submit = async (values: FormValues) => {
    const texts: Record<string, string> = {};
    for (const field of fields) {
      const text = toText(field, values[field.name]);
      if (id === null ? text !== '' : text !== (initial?.[field.name] ?? '')) texts[field.name] = text;
    }
    if (id !== null && Object.keys(texts).length === 0) return;
    try {
      const saved = await save.mutateAsync(texts);
      if (id === null) navigate(`/admin/goods/${saved.goods.id}`, { replace: true });
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) {
        form.setFields(Object.entries(error.fieldErrors).map(([name, errors]) => ({ name, errors })));
      } else throw error;
    }
  };

  const changed = save.data?.changed;
  return (
    <div data-testid="admin-goods-form">
      <Card
        className="console-card"
        title={id === null ? '新增商品' : `商品 ${id}`}
        extra={
          <Space>
            {id !== null && <Link to={`/admin/stock?keyword=${id}&goods=${id}`}>批号入库</Link>}
            <Link to="/admin/goods">返回商品列表</Link>
          </Space>
        }
      >
        {save.error && !(save.error instanceof ApiError && Object.keys(save.error.fieldErrors).length > 0) && (
          <Alert type="error" showIcon message={save.error.message} style={{ marginBottom: 16 }} />
        )}
        {id !== null && changed && (
          <Alert
            type={changed.length ? 'success' : 'info'}
            showIcon
            data-testid="goods-changed"
            style={{ marginBottom: 16 }}
            message={changed.length ? `已修改${changed.length}项：${changed.map((change) => change.label).join('、')}` : '没有修改'}
          />
        )}
        <Form<FormValues>
          form={form}
          layout="vertical"
          disabled={!mayChange}
          onFinish={(values) => void submit(values)}
          className="console-goods-form"
        >
          <div className="console-form-grid">
            {fields.map((field) =>
              field.kind === 'ladder' ? (
                <Form.Item key={field.name} label={field.label} className="console-form-wide">
                  <LadderInput />
                </Form.Item>
              ) : (
                <Form.Item
                  key={field.name}
                  name={field.name}
                  label={field.label}
                  valuePropName={field.kind === 'flag' ? 'checked' : 'value'}
                  className={field.max > 200 ? 'console-form-wide' : undefined}
                  rules={field.required ? [{ required: true, message: `请填写${field.label}` }] : []}
                >
                  <FieldInput spec={field} categories={categories} brands={brands} />
                </Form.Item>
              ),
            )}
          </div>
          {mayChange && (
            <Space>
              <Button type="primary" htmlType="submit" loading={save.isPending}>
                {id === null ? '新增商品' : '保存修改'}
              </Button>
              {id !== null && (
                <Button
                  onClick={() =>
                    form.setFieldsValue(Object.fromEntries(fields.map((field) => [field.name, toForm(field, initial?.[field.name] ?? '')])))
                  }
                >
                  撤销未保存的修改
                </Button>
              )}
            </Space>
          )}
        </Form>
      </Card>
      {id !== null && record.data && <GoodsPictures goods={id} mayChange={mayChange} />}
      {record.data && (
        <Card className="console-card" title="库存与价格历史">
          <p data-testid="goods-stock">
            可售库存 {record.data.stock}，销量 {record.data.sales}，近效期 {record.data.expires_on || '—'}
          </p>
          <Table
            rowKey={(row) => `${row.changed_at}-${row.price}-${row.ladder}`}
            size="small"
            pagination={false}
            dataSource={record.data.prices}
            data-testid="goods-prices"
            columns={[
              { title: '时间', dataIndex: 'changed_at', render: (at: number) => formatTime(at) },
              { title: '价格', dataIndex: 'price', render: (value: string) => <Money value={value} /> },
              { title: '原价', dataIndex: 'base_price', render: (value: string) => <Money value={value} /> },
              { title: '阶梯价', dataIndex: 'ladder', render: (ladder: string) => ladder || '—' },
              { title: '操作人', dataIndex: 'operator', render: (name: string) => name || '—' },
            ]}
          />
        </Card>
      )}
    </div>
  );
}
