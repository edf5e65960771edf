// 内容: the shop's small content blocks — banners and ads (the home carousel, the right-hand
// positions, each brand's zone), the nav, the hot search terms and the footer's links. Each is
// added, changed and deleted here, and the shop shows it at once.
import { useState } from 'react';
import { Button, ColorPicker, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Switch, Table, Tabs } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useFilters } from './filters';
import { can, useBlocks, useSaveBlock, type BlockKind, type Blocks, type OperatorMe } from './api';

type Row = { id: number; sort: number } & Record<string, string | number>;

interface Editing {
  kind: BlockKind;
  row: Row | null;
}

const LABELS: Record<BlockKind, string> = { ad: '广告', nav: '导航', hot_term: '热门搜索', link: '友情链接' };

export function BlocksPage({ me }: { me: OperatorMe }) {
  const [filters, setFilters] = useFilters(['tab', 'position']);
  const tab = (filters.tab as BlockKind | undefined) ?? 'ad';
  const position = String(filters.position ?? 'focus');
  const blocks = useBlocks();
  const save = useSaveBlock();
  const [editing, setEditing] = useState<Editing | null>(null);
  const mayWrite = can(me, 'content');
  const data = blocks.data;

  const actions = (kind: BlockKind): ColumnsType<Row>[number] => ({
    title: '操作',
    render: (_, row) =>
      mayWrite ? (
        <Space>
          <Button type="link" onClick={() => setEditing({ kind, row })}>
            编辑
          </Button>
          <Popconfirm title={`删除这条${LABELS[kind]}？`} onConfirm={() => save.mutateAsync({ kind, id: row.id, remove: true })}>
            <Button type="link" danger>
              删除
            </Button>
          </Popconfirm>
        </Space>
      ) : null,
  });
  const table = (kind: BlockKind, rows: Row[], columns: ColumnsType<Row>) => (
    <>
      {mayWrite && (
        <Space className="console-filters">
          <Button type="primary" onClick={() => setEditing({ kind, row: null })}>
            添加{LABELS[kind]}
          </Button>
        </Space>
      )}
      <Table<Row>
        rowKey="id"
        size="small"
        loading={blocks.isFetching}
        dataSource={rows}
        pagination={false}
        columns={[...columns, { title: '排序', dataIndex: 'sort', align: 'right' }, actions(kind)]}
      />
    </>
  );
  const ads = ((data?.ads ?? []) as unknown as Row[]).filter((row) => row.position === position);
  return (
    <div data-testid="admin-blocks">
      <Tabs
        activeKey={tab}
        onChange={(next) => setFilters({ tab: next })}
        items={[
          {
            key: 'ad',
            label: '广告',
            children: (
              <>
                <Space className="console-filters">
                  <span>位置</span>
                  <Select
                    aria-label="广告位置"
                    style={{ width: 240 }}
                    value={position}
                    onChange={(next) => setFilters({ tab: 'ad', position: next })}
                    options={(data?.positions ?? []).map((known) => ({ value: known.key, label: known.label }))}
                  />
                </Space>
                {table('ad', ads, [
                  { title: '图片', dataIndex: 'image', render: (image: string) => <img src={image} alt="" className="console-ad-thumb" /> },
                  { title: '标题', dataIndex: 'title' },
                  { title: '副标题', dataIndex: 'subtitle' },
                  { title: '链接', dataIndex: 'url' },
                ])}
              </>
            ),
          },
          {
            key: 'nav',
            label: '导航',
            children: table('nav', (data?.nav ?? []) as unknown as Row[], [
              { title: '名称', dataIndex: 'name' },
              { title: '链接', dataIndex: 'url' },
              { title: '新窗口', dataIndex: 'is_open', render: (open: number) => (open ? '是' : '否') },
            ]),
          },
          {
            key: 'hot_term',
            label: '热门搜索',
            children: table('hot_term', (data?.hot_terms ?? []) as unknown as Row[], [{ title: '搜索词', dataIndex: 'term' }]),
          },
          {
            key: 'link',
            label: '友情链接',
            children: table('link', (data?.links ?? []) as unknown as Row[], [
              { title: '名称', dataIndex: 'name' },
              { title: '网址', dataIndex: 'url' },
            ]),
          },
        ]}
      />
      {editing && (
        <BlockForm
          editing={editing}
          position={position}
          positions={data?.positions ?? []}
          onClose={() => setEditing(null)}
          onSave={(form) => save.mutateAsync({ kind: editing.kind, id: editing.row?.id ?? null, form }).then(() => setEditing(null))}
          saving={save.isPending}
        />
      )}
    </div>
  );
}

interface FormValues {
  position?: string;
  title: string;
  subtitle?: string;
  url?: string;
  color?: string;
  is_open?: boolean;
  sort?: number | null;
}

function BlockForm({
  editing,
  position,
  positions,
  onClose,
  onSave,
  saving,
}: {
  editing: Editing;
  position: string;
  positions: Blocks['positions'];
  onClose: () => void;
  onSave: (form: Record<string, string | number>) => Promise<unknown>;
  saving: boolean;
}) {
  const { kind, row } = editing;
  const [form] = Form.useForm<FormValues>();
  const initial: FormValues = row
    ? {
        position: String(row.position ?? position),
        title: String(row.title ?? row.name ?? row.term ?? ''),
        subtitle: String(row.subtitle ?? ''),
        url: String(row.url ?? ''),
        color: String(row.color || '#11845b'),
        is_open: Number(row.is_open ?? 0) === 1,
        sort: row.sort,
      }
    : { position, title: '', subtitle: '', url: '', color: '#11845b', is_open: false, sort: null };
  const submit = (values: FormValues) => {
    const out: Record<string, string | number> = { title: values.title };
    if (kind === 'ad')
      Object.assign(out, { position: values.position ?? position, subtitle: values.subtitle ?? '', color: values.color ?? '' });
    if (kind !== 'hot_term') out.url = values.url ?? '';
    if (kind === 'nav') out.is_open = values.is_open ? 1 : 0;
    if (values.sort !== null && values.sort !== undefined) out.sort = values.sort;
    return onSave(out);
  };
  const titleLabel = { ad: '标题', nav: '名称', hot_term: '搜索词', link: '名称' }[kind];
  return (
    <Modal
      open
      title={`${row ? '编辑' : '添加'}${LABELS[kind]}`}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      onCancel={onClose}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initial} onFinish={submit} aria-label={`${LABELS[kind]}表单`}>
        {kind === 'ad' && (
          <Form.Item name="position" label="位置" rules={[{ required: true, message: '请选择广告位置' }]}>
            <Select options={positions.map((known) => ({ value: known.key, label: known.label }))} />
          </Form.Item>
        )}
        <Form.Item name="title" label={titleLabel} rules={[{ required: true, whitespace: true, message: `请填写${titleLabel}` }]}>
          <Input maxLength={kind === 'nav' ? 8 : kind === 'hot_term' ? 10 : 20} />
        </Form.Item>
        {kind === 'ad' && (
          <Form.Item name="subtitle" label="副标题">
            <Input maxLength={30} />
          </Form.Item>
        )}
        {kind !== 'hot_term' && (
          <Form.Item
            name="url"
            label="链接"
            rules={[{ required: true, whitespace: true, message: '请填写链接' }]}
            extra={kind === 'link' ? 'http(s)://网址' : '本站页面（如 /zyyp）或 http(s):// 网址'}
          >
            <Input />
          </Form.Item>
        )}
        {kind === 'ad' && (
          <Form.Item name="color" label="颜色" getValueFromEvent={(color: { toHexString: () => string }) => color.toHexString()}>
            <ColorPicker disabledAlpha showText />
          </Form.Item>
        )}
        {kind === 'nav' && (
          <Form.Item name="is_open" label="新窗口打开" valuePropName="checked">
            <Switch />
          </Form.Item>
        )}
        <Form.Item name="sort" label="排序" extra="小的在前；不填则排在最后">
          <InputNumber min={0} max={9999} precision={0} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
