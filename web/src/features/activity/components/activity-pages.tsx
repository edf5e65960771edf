// The activity screens, loaded together: the templates (/hdmb, /zqmb), the activity zone
// (/yjh/{id?}), the activity centre (/Hdzx/{ids}/{id?}), 优医汇 (/yyh, /yyh/list) and the loader
// that /activity/{url} goes through.
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { Button, Empty, Result, Skeleton, Spin, Tabs } from 'antd';
import { parseIds, activitiesQuery, activityQuery } from '../api';
import { GoodsTable } from '@/components/goods-table';
import { ActivityCard, ActivityView } from './activity-view';

function NotFound() {
  return (
    <Result
      status="warning"
      title="活动不存在"
      subTitle="该活动不存在或已结束"
      extra={
        <Link to="/yjh">
          <Button type="primary">查看其他活动</Button>
        </Link>
      }
    />
  );
}

/** One activity by id or url, as its template shows it. */
function ActivityByKey({ activityKey }: { activityKey: string | undefined }) {
  const activity = useQuery(activityQuery(activityKey));
  if (!activityKey || activity.isError) return <NotFound />;
  if (!activity.data) return <Skeleton active className="container" />;
  return <ActivityView activity={activity.data} />;
}

/** /hdmb and /zqmb (`?id=`): the activity templates. */
export function TemplatePage() {
  const [params] = useSearchParams();
  return <ActivityByKey activityKey={params.get('id') ?? undefined} />;
}

/** /yjh: the activities, running first; /yjh/{id}: one of them. */
export function ActivityZonePage() {
  const { id } = useParams();
  const activities = useQuery(activitiesQuery());
  if (id) return <ActivityByKey activityKey={id} />;
  return (
    <div className="container">
      <div className="promotion-banner zone-banner">
        <h1>活动专区</h1>
        <p>正在进行与即将开始的采购活动</p>
      </div>
      {!activities.data ? (
        <Skeleton active />
      ) : activities.data.length === 0 ? (
        <Empty description="暂无活动" />
      ) : (
        <div className="activity-cards">
          {activities.data.map((activity) => (
            <ActivityCard key={activity.id} activity={activity} />
          ))}
        </div>
      )}
    </div>
  );
}

/** /Hdzx/{ids}/{id?}: the activities named, as tabs; the one chosen (else the first) shown. */
export function ActivityCentrePage() {
  const { ids, id } = useParams();
  const navigate = useNavigate();
  const wanted = parseIds(ids);
  const activities = useQuery(activitiesQuery(wanted));
  if (wanted.length === 0) return <NotFound />;
  if (!activities.data) return <Skeleton active className="container" />;
  if (activities.data.length === 0) return <NotFound />;
  const chosen = activities.data.find((activity) => String(activity.id) === id) ?? activities.data[0];
  return (
    <div className="activity-centre">
      <div className="container">
        <Tabs
          activeKey={String(chosen.id)}
          onChange={(key) => navigate(`/Hdzx/${wanted.join(',')}/${key}`)}
          items={activities.data.map((activity) => ({ key: String(activity.id), label: activity.title }))}
        />
      </div>
      <ActivityByKey activityKey={String(chosen.id)} />
    </div>
  );
}

/** 优医汇 (/yyh): the activity whose url is `yyh`, with the way to its list. */
export function YyhPage() {
  return (
    <>
      <div className="container yyh-links">
        <Link to="/yyh/list">查看全部品种清单</Link>
      </div>
      <ActivityByKey activityKey="yyh" />
    </>
  );
}

/** 优医汇 清单 (/yyh/list): every goods of 优医汇 in one table. */
export function YyhListPage() {
  const activity = useQuery(activityQuery('yyh'));
  if (activity.isError) return <NotFound />;
  if (!activity.data) return <Skeleton active className="container" />;
  const goods = activity.data.sections.flatMap((section) => section.goods);
  return (
    <div className="container">
      <div className="promotion-banner activity-banner" style={{ background: activity.data.color }}>
        <h1>{activity.data.title} · 品种清单</h1>
        <p>
          {activity.data.subtitle} · <Link to="/yyh">返回优医汇</Link>
        </p>
      </div>
      {goods.length === 0 ? <Empty description="暂无品种" /> : <GoodsTable goods={goods} />}
    </div>
  );
}

/** /loading/activity (`?url=` from /activity/{url}): finds the activity and opens it with its
 * template, or /noActivity. */
export function ActivityLoadingPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const url = params.get('url') ?? '';
  const activity = useQuery(activityQuery(url || undefined));
  useEffect(() => {
    if (!url || activity.isError) navigate('/noActivity', { replace: true });
    else if (activity.data) navigate(`/${activity.data.template}?id=${activity.data.id}`, { replace: true });
  }, [url, activity.isError, activity.data, navigate]);
  return (
    <div className="loading-page">
      <Spin size="large" />
      <p>活动加载中…</p>
    </div>
  );
}
