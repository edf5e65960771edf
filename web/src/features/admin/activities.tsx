// 活动页 (docs/backoffice.md, "Promotions"): the activity pages with their address, template,
// where each stands and its sections; an activity's form — address, title, subtitle, template,
// colour, note, schedule, place — and its sections as rows, each a title and goods found by
// name. A running page is opened from the list as buyers see it.
import { useMemo, useState } from 'react';
import { Alert, Button, DatePicker, Form, Input, InputNumber, Modal, Select, Space, Table } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { PERIOD, showOnFields, wholeRefusal } from './form-refusals';
import {
  can,
  useActivityPages,
  useEndActivityPage,
  useSaveActivityPage,
  type ActivityPageDraft,
  type ActivityPageRow,
  type OperatorMe,
} from './api';
import { useGoodsChoices } from './goods-choices';
import { ListCard, ScheduledActions } from './scheduled';
import { periodColumn, stateColumn } from './scheduled-columns';

const TEMPLATES = [
  { value: 'hdmb', label: '活动模板' },
  { value: 'zqmb', label: '专区模板' },
];

export function ActivityPagesPage({ me }: { me: OperatorMe }) {
  const list = useActivityPages();
  const end = useEndActivityPage();
  const mayChange = can(me, 'promotions');
  // The activity being edited: null for none, 0 for a new one.
  const [editing, setEditing] = useState<ActivityPageRow | 0 | null>(null);
  return (
    <ListCard title="活动页" testId="admin-activities" addLabel="新增活动页" onAdd={mayChange ? () => setEditing(0) : undefined}>
      <Table<ActivityPageRow>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: '编号', dataIndex: 'id', width: 70 },
          { title: '活动名称', dataIndex: 'title' },
          {
            title: '页面',
            dataIndex: 'url',
            render: (url: string, row) =>
              !url ? (
                <span className="muted">暂无页面</span>
              ) : row.state === '进行中' ? (
                <a href={`/activity/${url}`} target="_blank" rel="noreferrer">
                  /activity/{url}
                </a>
              ) : (
                `/activity/${url}`
              ),
          },
          { title: '模板', dataIndex: 'template', render: (value: string) => TEMPLATES.find((one) => one.value === value)?.label },
          {
            title: '栏目',
            key: 'sections',
            render: (_, row) => row.sections.map((section) => `${section.title}（${section.goods.length}）`).join('、'),
          },
          periodColumn<ActivityPageRow>(),
          stateColumn<ActivityPageRow>(),
          {
            title: '操作',
            key: 'actions',
            render: (_, row) =>
              mayChange && (
                <ScheduledActions
                  state={row.state}
                  ask="结束后活动页及其入口将下线，确定结束？"
                  onEdit={() => setEditing(row)}
                  onEnd={() => end.mutateAsync(row.id)}
                />
              ),
          },
        ]}
      />
      {editing !== null && <ActivityDialog activity={editing === 0 ? null : editing} onClose={() => setEditing(null)} />}
    </ListCard>
  );
}

interface FormValues {
  url?: string;
  title?: string;
  subtitle?: string;
  template?: string;
  color?: string;
  note?: string;
  period?: [Dayjs, Dayjs];
  sort?: number;
  sections?: { title?: string; goods?: number[] }[];
}

function draftOf(values: FormValues): ActivityPageDraft {
  const [start, end] = values.period ?? [];
  return {
    url: (values.url ?? '').trim(),
    title: (values.title ?? '').trim(),
    subtitle: (values.subtitle ?? '').trim(),
    template: values.template ?? '',
    color: (values.color ?? '').trim(),
    note: (values.note ?? '').trim(),
    starts_at: start ? start.unix() : 0,
    ends_at: end ? end.unix() : 0,
    sort: values.sort ?? 0,
    sections: (values.sections ?? []).map((section) => `${(section.title ?? '').trim()}:${(section.goods ?? []).join(',')}`).join('\n'),
  };
}

function ActivityDialog({ activity, onClose }: { activity: ActivityPageRow | null; onClose: () => void }) {
  const [form] = Form.useForm<FormValues>();
  const save = useSaveActivityPage();
  const own = useMemo(
    () =>
      new Map(
        (activity?.sections ?? []).flatMap((section) =>
          section.goods.map((goods) => [goods.id, `${goods.id} ${goods.name} ${goods.ypgg}`] as const),
        ),
      ),
    [activity],
  );
  const choices = useGoodsChoices(own);
  const initial: FormValues = activity
    ? {
        url: activity.url,
        title: activity.title,
        subtitle: activity.subtitle,
        template: activity.template,
        color: activity.color,
        note: activity.note,
        period: [dayjs.unix(activity.starts_at), dayjs.unix(activity.ends_at)],
        sort: activity.sort,
        sections: activity.sections.map((section) => ({ title: section.title, goods: section.goods.map((goods) => goods.id) })),
      }
    : {
        template: 'hdmb',
        color: '#1f8a5b',
        sort: 0,
        period: [dayjs().startOf('minute'), dayjs().add(14, 'day').endOf('day')],
        sections: [{ goods: [] }],
      };
  const submit = async (values: FormValues) => {
    try {
      await save.mutateAsync({ id: activity?.id ?? null, form: draftOf(values) });
      onClose();
    } catch (error) {
      showOnFields(form, error, PERIOD);
    }
  };
  const refusal = wholeRefusal(save.error);
  return (
    <Modal
      open
      title={activity ? `修改活动页 ${activity.id}` : '新增活动页'}
      onCancel={onClose}
      okText="保存"
      cancelText="取消"
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      width={860}
      destroyOnHidden
    >
      {refusal && <Alert type="error" showIcon message={refusal} style={{ marginBottom: 12 }} />}
      <Form<FormValues> form={form} layout="vertical" initialValues={initial} onFinish={(values) => void submit(values)}>
        <Space size="large" align="start" wrap>
          <Form.Item name="title" label="活动名称" rules={[{ required: true, message: '请填写活动名称' }]}>
            <Input maxLength={30} style={{ width: 260 }} />
          </Form.Item>
          <Form.Item name="url" label="页面地址" extra="/activity/地址；不填则暂无页面（入口提示活动暂未开始）">
            <Input addonBefore="/activity/" style={{ width: 300 }} />
          </Form.Item>
        </Space>
        <Space size="large" align="start" wrap>
          <Form.Item name="subtitle" label="副标题">
            <Input maxLength={60} style={{ width: 260 }} />
          </Form.Item>
          <Form.Item name="template" label="页面模板">
            <Select options={TEMPLATES} aria-label="页面模板" style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="color" label="横幅颜色">
            <Input style={{ width: 120 }} />
          </Form.Item>
          <Form.Item name="sort" label="排序">
            <InputNumber min={0} style={{ width: 100 }} />
          </Form.Item>
        </Space>
        <Space size="large" align="start" wrap>
          <Form.Item name="period" label="活动时间" rules={[{ required: true, message: '请选择活动时间' }]}>
            <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" />
          </Form.Item>
          <Form.Item name="note" label="未开始提示" extra="不填则提示“活动未开始”">
            <Input maxLength={100} style={{ width: 300 }} />
          </Form.Item>
        </Space>
        <Form.List name="sections">
          {(rows, { add, remove }, { errors }) => (
            <Form.Item label="栏目">
              {rows.map((row, index) => (
                <Space key={row.key} align="baseline" style={{ display: 'flex', marginBottom: 4 }}>
                  <Form.Item name={[row.name, 'title']} noStyle>
                    <Input placeholder="栏目名称" aria-label={`第${index + 1}个栏目名称`} maxLength={20} style={{ width: 150 }} />
                  </Form.Item>
                  <Form.Item name={[row.name, 'goods']} noStyle>
                    <Select
                      mode="multiple"
                      showSearch
                      filterOption={false}
                      onSearch={choices.setSearch}
                      onChange={choices.remember}
                      options={choices.options}
                      loading={choices.loading}
                      placeholder="输入商品ID或名称查找"
                      aria-label={`第${index + 1}个栏目商品`}
                      style={{ width: 560 }}
                    />
                  </Form.Item>
                  <Button type="link" onClick={() => remove(row.name)}>
                    删除
                  </Button>
                </Space>
              ))}
              {rows.length < 10 && (
                <Button type="dashed" onClick={() => add({ goods: [] })} style={{ marginTop: 8 }}>
                  添加栏目
                </Button>
              )}
              <Form.ErrorList errors={errors} />
            </Form.Item>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
