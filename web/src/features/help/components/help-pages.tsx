// 帮助中心 (/help/…, and /help/pay with its 支付与配送 children under the login-style header) and
// 新闻 (/news/hy, /news/company, /news/info/{id}/{type}). The help menu is the footer's data,
// cached in local storage (§3). Article bodies come as HTML the origin rendered from Markdown
// with any HTML in them escaped and unsafe link targets dropped, so putting it in the page is
// safe.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { Empty, List, Menu, Result, Skeleton } from 'antd';
import type { Article } from '@/api/types';
import { helpGroupsQuery } from '@/api/common';
import { NEWS_CATEGORIES, helpArticleId, articleQuery, newsQuery } from '../api';

function ArticleBody({ article }: { article: Article }) {
  return <div className="article-body" data-testid="article-body" dangerouslySetInnerHTML={{ __html: article.html }} />;
}

/** A help page: the groups on the left, the article on the right. `only` keeps one group
 * (支付与配送 for /help/pay). */
export function HelpPage({ only }: { only?: string }) {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const groups = useQuery(helpGroupsQuery());
  const shown = only ? groups.data?.filter((group) => group.name === only) : groups.data;
  const first = shown?.[0]?.list[0]?.id;
  const id = helpArticleId(shown, pathname, params.get('id')) ?? (only ? first : undefined);
  const article = useQuery(articleQuery(id));
  return (
    <div className="container help-page">
      <aside className="help-menu">
        <Menu
          mode="inline"
          selectedKeys={id ? [String(id)] : []}
          items={(shown ?? []).map((group) => ({
            key: group.name,
            type: 'group',
            label: group.name,
            children: group.list.map((entry) => ({
              key: String(entry.id),
              label: <Link to={`${entry.path}?id=${entry.id}`}>{entry.title}</Link>,
            })),
          }))}
        />
      </aside>
      <section className="help-main">
        {!groups.data || (id && article.isPending) ? (
          <Skeleton active />
        ) : !id || article.isError || !article.data ? (
          <Result status="404" title="文章不存在" extra={<Link to="/help/xrzn/hyzc">返回帮助中心</Link>} />
        ) : (
          <article>
            <h1 className="article-title" data-testid="article-title">
              {article.data.title}
            </h1>
            <ArticleBody article={article.data} />
          </article>
        )}
      </section>
    </div>
  );
}

/** 支付与配送 (/help/pay, /help/zfps/…). */
export function PayHelpPage() {
  return <HelpPage only="支付与配送" />;
}

const NEWS_PAGE = 10;

/** A news category (/news/hy, /news/company), ten a page. */
export function NewsListPage({ category }: { category: 'hy' | 'company' }) {
  const news = useQuery(newsQuery(category));
  const [page, setPage] = useState(1);
  return (
    <div className="container news-page">
      <div className="news-tabs">
        {(Object.keys(NEWS_CATEGORIES) as ('hy' | 'company')[]).map((key) => (
          <Link key={key} to={`/news/${key}`} className={key === category ? 'active' : ''}>
            {NEWS_CATEGORIES[key]}
          </Link>
        ))}
      </div>
      {!news.data ? (
        <Skeleton active />
      ) : news.data.length === 0 ? (
        <Empty description="暂无新闻" />
      ) : (
        <List
          data-testid="news-list"
          itemLayout="vertical"
          dataSource={news.data}
          pagination={
            news.data.length > NEWS_PAGE ? { current: page, pageSize: NEWS_PAGE, onChange: setPage, showSizeChanger: false } : false
          }
          renderItem={(item) => (
            <List.Item key={item.id} extra={<span className="muted">{item.date}</span>}>
              <List.Item.Meta title={<Link to={`/news/info/${item.id}/${category}`}>{item.title}</Link>} description={item.summary} />
            </List.Item>
          )}
        />
      )}
    </div>
  );
}

export function IndustryNewsPage() {
  return <NewsListPage category="hy" />;
}

export function CompanyNewsPage() {
  return <NewsListPage category="company" />;
}

/** 新闻详情 (/news/info/{id}/{type}): the article with the ones before and after it. */
export function NewsInfoPage() {
  const params = useParams();
  const type = params.type === 'company' ? 'company' : 'hy';
  const article = useQuery(articleQuery(Number(params.id)));
  if (article.isError) return <Result status="404" title="新闻不存在" extra={<Link to={`/news/${type}`}>返回新闻列表</Link>} />;
  if (!article.data) return <Skeleton active className="container" />;
  const { prev, next } = article.data;
  return (
    <div className="container news-page">
      <div className="news-tabs">
        <Link to={`/news/${type}`}>{NEWS_CATEGORIES[type]}</Link>
      </div>
      <article className="news-article">
        <h1 className="article-title" data-testid="article-title">
          {article.data.title}
        </h1>
        <p className="muted">{article.data.date}</p>
        <ArticleBody article={article.data} />
      </article>
      <nav className="news-neighbours" aria-label="上一篇和下一篇">
        <span>上一篇：{prev ? <Link to={`/news/info/${prev.id}/${type}`}>{prev.title}</Link> : '没有了'}</span>
        <span>下一篇：{next ? <Link to={`/news/info/${next.id}/${type}`}>{next.title}</Link> : '没有了'}</span>
      </nav>
    </div>
  );
}
