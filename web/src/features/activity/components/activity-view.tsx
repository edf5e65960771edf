// An activity as its template shows it: the banner in the activity's colour, then its sections
// of goods — the activity template (hdmb) as card grids, the zone template (zqmb) with the
// sections as an anchored menu beside tables. Not yet started: its note, or 活动未开始.
import { Anchor, Card as AntCard, Empty, Result } from 'antd';
import { useNavigate } from 'react-router';
import type { ActivityLink, ActivityPage } from '@/api/types';
import { GoodsCard } from '@/components/goods-card';
import { GoodsTable } from '@/components/goods-table';
import { formatTime } from '@/lib/time';
import { countdown, useServerNow } from '@/lib/server-clock';
import { activityTap } from '../api';
import { useUi } from '@/lib/ui';

function Banner({ activity }: { activity: ActivityLink }) {
  const now = useServerNow();
  return (
    <div className="promotion-banner activity-banner" style={{ background: activity.color }} data-testid="activity-banner">
      <h1>{activity.title}</h1>
      <p>
        {activity.subtitle}
        {activity.state === 'running' ? ` · 距结束 ${countdown(activity.ends_at - now)}` : ` · ${formatTime(activity.starts_at)} 开始`}
      </p>
    </div>
  );
}

export function ActivityView({ activity }: { activity: ActivityPage }) {
  if (activity.state !== 'running') {
    return (
      <div className="container">
        <Banner activity={activity} />
        <Result status="info" title="活动未开始" subTitle={activity.note || `活动将于 ${formatTime(activity.starts_at)} 开始，敬请期待`} />
      </div>
    );
  }
  const sections = activity.sections.filter((section) => section.goods.length > 0);
  return (
    <div className="container activity-page" data-testid="activity">
      <Banner activity={activity} />
      {sections.length === 0 ? (
        <Empty description="活动商品筹备中" />
      ) : activity.template === 'zqmb' ? (
        <div className="zone-body">
          <Anchor
            className="activity-anchor"
            offsetTop={80}
            items={sections.map((section) => ({ key: String(section.id), href: `#section-${section.id}`, title: section.title }))}
          />
          <div className="zone-main">
            {sections.map((section) => (
              <AntCard key={section.id} id={`section-${section.id}`} size="small" title={section.title} className="activity-section">
                <GoodsTable goods={section.goods} />
              </AntCard>
            ))}
          </div>
        </div>
      ) : (
        sections.map((section) => (
          <section key={section.id} id={`section-${section.id}`} className="activity-section">
            <h2 className="activity-section-title">{section.title}</h2>
            <div className="goods-grid zone-grid">
              {section.goods.map((goods) => (
                <GoodsCard key={goods.id} goods={goods} />
              ))}
            </div>
          </section>
        ))
      )}
    </div>
  );
}

/** A link to an activity: opens it while it runs, otherwise says why not (§8). */
export function ActivityCard({ activity }: { activity: ActivityLink }) {
  const navigate = useNavigate();
  const { message } = useUi();
  const tap = () => {
    const action = activityTap(activity);
    if ('go' in action) navigate(action.go);
    else message.info(action.say);
  };
  return (
    <button type="button" className="activity-card" style={{ borderColor: activity.color }} onClick={tap} data-testid="activity-card">
      <span className="activity-card-title" style={{ color: activity.color }}>
        {activity.title}
      </span>
      <span className="muted">{activity.subtitle}</span>
      <span className={activity.state === 'running' ? 'activity-state running' : 'activity-state'}>
        {activity.state === 'running' ? '进行中' : '未开始'}
      </span>
    </button>
  );
}
