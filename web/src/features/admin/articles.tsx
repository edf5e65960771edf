// 文章: help (帮助中心) and news (资讯) articles. Operations writes the body in Markdown beside a
// preview the server renders exactly as the article's page will (placeholders such as
// {{shop.name}} filled, raw HTML escaped), saves a change, or publishes a news item. The help
// centre's pages are the shop's routes: their articles are changed, never added.
import { useEffect, useState } from 'react';
import { Button, Card, DatePicker, Form, Input, Select, Space, Table, Tabs } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useFilters } from './filters';
import { can, previewArticle, useArticle, useArticles, useSaveArticle, type ArticleRow, type OperatorMe } from './api';

const KINDS = [
  { key: 'help', label: '帮助中心' },
  { key: 'news', label: '资讯' },
];
const NEWS_CATEGORIES = [
  { value: 'hy', label: '行业资讯' },
  { value: 'company', label: '公司新闻' },
];

interface Values {
  kind: string;
  title: string;
  category?: string;
  summary?: string;
  published_on?: Dayjs;
  body: string;
}

export function ArticlesPage({ me }: { me: OperatorMe }) {
  const [filters, setFilters] = useFilters(['kind', 'edit']);
  const kind = String(filters.kind ?? 'help');
  const editing = filters.edit === undefined ? null : String(filters.edit);
  const articles = useArticles(kind);
  const mayWrite = can(me, 'content');
  if (editing !== null)
    return (
      <ArticleEditor
        id={editing === 'new' ? null : Number(editing)}
        kind={kind}
        mayWrite={mayWrite}
        onDone={(id) => setFilters(id === undefined ? { kind } : { kind, edit: id })}
      />
    );
  return (
    <div data-testid="admin-articles">
      <Tabs activeKey={kind} onChange={(next) => setFilters({ kind: next })} items={KINDS} />
      {mayWrite && kind === 'news' && (
        <Space className="console-filters">
          <Button type="primary" onClick={() => setFilters({ kind, edit: 'new' })}>
            写资讯
          </Button>
        </Space>
      )}
      <Table<ArticleRow>
        rowKey="id"
        size="small"
        loading={articles.isFetching}
        dataSource={articles.data ?? []}
        pagination={{ pageSize: 20 }}
        columns={[
          { title: '标题', dataIndex: 'title' },
          kind === 'help'
            ? { title: '分组', dataIndex: 'group_name' }
            : { title: '分类', dataIndex: 'category', render: (value: string) => NEWS_CATEGORIES.find((c) => c.value === value)?.label },
          kind === 'help' ? { title: '页面', dataIndex: 'path' } : { title: '发布日期', dataIndex: 'published_on' },
          {
            title: '操作',
            render: (_, row) => (
              <Space>
                <Button type="link" onClick={() => setFilters({ kind, edit: row.id })}>
                  {mayWrite ? '编辑' : '查看'}
                </Button>
                <a
                  href={row.kind === 'help' ? `${row.path}?id=${row.id}` : `/news/info/${row.id}/${row.category}`}
                  target="_blank"
                  rel="noreferrer"
                >
                  在商城查看
                </a>
              </Space>
            ),
          },
        ]}
      />
    </div>
  );
}

function ArticleEditor({
  id,
  kind,
  mayWrite,
  onDone,
}: {
  id: number | null;
  kind: string;
  mayWrite: boolean;
  onDone: (id?: number) => void;
}) {
  const article = useArticle(id);
  const save = useSaveArticle();
  const [form] = Form.useForm<Values>();
  const body = Form.useWatch('body', form) ?? '';
  const chosenKind = Form.useWatch('kind', form) ?? kind;

  useEffect(() => {
    if (id === null) form.setFieldsValue({ kind: 'news', category: 'hy', body: '', published_on: dayjs() });
    else if (article.data) {
      const { published_on, ...rest } = article.data;
      form.setFieldsValue({ ...rest, published_on: published_on ? dayjs(published_on) : undefined });
    }
  }, [id, kind, article.data, form]);

  // The preview follows the body a moment after typing stops.
  const [settled, setSettled] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSettled(body), 300);
    return () => clearTimeout(timer);
  }, [body]);
  const preview = useQuery({
    queryKey: ['admin', 'article-preview', settled],
    queryFn: () => previewArticle(settled),
    enabled: settled.trim() !== '',
    placeholderData: keepPreviousData,
  });
  const html = body.trim() && preview.data ? preview.data.html : '';

  const submit = (values: Values) => {
    const fields: Record<string, string> = {
      title: values.title,
      summary: values.summary ?? '',
      body: values.body,
      published_on: values.published_on ? values.published_on.format('YYYY-MM-DD') : '',
    };
    if (id === null) fields.kind = 'news';
    if (chosenKind === 'news') fields.category = values.category ?? '';
    return save.mutateAsync({ id, form: fields }).then((saved) => onDone(saved.id));
  };

  return (
    <Card
      data-testid="article-editor"
      loading={id !== null && article.isPending}
      title={id === null ? '写资讯' : `文章 ${id}`}
      extra={<Button onClick={() => onDone()}>返回列表</Button>}
    >
      <Form form={form} layout="vertical" onFinish={submit} disabled={!mayWrite}>
        <Space wrap align="start">
          <Form.Item name="kind" hidden>
            <Input />
          </Form.Item>
          <Form.Item name="title" label="标题" rules={[{ required: true, whitespace: true, message: '请填写标题' }]}>
            <Input maxLength={60} style={{ width: 320 }} />
          </Form.Item>
          {chosenKind === 'help' ? (
            <Form.Item label="页面">
              <span data-testid="article-page">
                {article.data?.group_name} · {article.data?.path}
              </span>
            </Form.Item>
          ) : (
            <Form.Item name="category" label="分类" rules={[{ required: true, message: '请选择资讯分类' }]}>
              <Select style={{ width: 140 }} options={NEWS_CATEGORIES} />
            </Form.Item>
          )}
          <Form.Item name="published_on" label="发布日期">
            <DatePicker />
          </Form.Item>
        </Space>
        <Form.Item name="summary" label="摘要">
          <Input maxLength={200} />
        </Form.Item>
        <div className="article-editor">
          <Form.Item name="body" label="正文（Markdown）" rules={[{ required: true, whitespace: true, message: '请填写正文' }]}>
            <Input.TextArea aria-label="正文" autoSize={{ minRows: 16, maxRows: 28 }} />
          </Form.Item>
          <div>
            <div className="ant-form-item-label">
              <label>预览</label>
            </div>
            <div className="article-preview article-body" data-testid="article-preview" dangerouslySetInnerHTML={{ __html: html }} />
          </div>
        </div>
        {mayWrite && (
          <Button type="primary" htmlType="submit" loading={save.isPending}>
            {id === null ? '发布' : '保存'}
          </Button>
        )}
      </Form>
    </Card>
  );
}
