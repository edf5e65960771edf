// The lucky-draw popup itself (§4, §8), once the check (draw-popup.tsx) has said that it opens:
// 立即抽奖 locks it; the server decides the prize, and the result appears 2 s after the press:
// "恭喜您 , 抽中{name} ( {remarks} )". Closing while drawing asks first. Beside the prizes: the
// latest winners scrolling (`draw/new_record`, read again after the member's own draw), the
// activity's rules and the prizes left (`draw/{id}/activity`, when 活动规则 is opened), and the
// activities running now (`draw/ads`), another of which the member may switch to. It comes in its
// own file: most pages of most visits never open it.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button, Modal, Tag } from 'antd';
import dayjs from 'dayjs';
import type { DrawResult } from '@/api/types';
import { drawActivityQuery, drawAdsQuery, drawRulesQuery, drawWinnersQuery, useDraw } from '../draw-api';
import { DRAW_CLOSED, drawMessage } from '../draw';
import { useUi } from '@/lib/ui';

const moment = (seconds: number) => dayjs.unix(seconds).format('YYYY-MM-DD HH:mm');

/** The latest winners, scrolling upwards (still for a reduced-motion preference). */
function WinnerStrip({ id }: { id: number }) {
  const winners = useQuery(drawWinnersQuery(id));
  const list = winners.data?.list ?? [];
  const scrolling = list.length > 3;
  const rows = (copy: boolean) =>
    list.map((winner, index) => (
      <li key={`${index}-${winner.created_at}`} data-testid={copy ? undefined : 'draw-winner'}>
        <span>恭喜 {winner.company}</span> 抽中 <strong>{winner.name}</strong>
        <span className="muted"> {dayjs.unix(winner.created_at).format('MM-DD HH:mm')}</span>
      </li>
    ));
  return (
    <div className="draw-winners" data-testid="draw-winners">
      <div className="draw-winners-title">最新中奖</div>
      {list.length === 0 ? (
        <p className="muted">暂无中奖记录，快来抽取第一份奖品</p>
      ) : (
        <div className={scrolling ? 'draw-winners-window scrolling' : 'draw-winners-window'}>
          {/* The list twice, so that the scroll loops without a jump; the copy is for the eye only. */}
          <div className="draw-winners-track" style={scrolling ? { animationDuration: `${list.length * 2}s` } : undefined}>
            <ul>{rows(false)}</ul>
            {scrolling && <ul aria-hidden="true">{rows(true)}</ul>}
          </div>
        </div>
      )}
    </div>
  );
}

/** 活动规则: the activity's dates, its description, each prize and how many are left. */
function DrawRules({ id }: { id: number }) {
  const rules = useQuery(drawRulesQuery(id));
  const data = rules.data;
  if (!data) return <p className="muted">正在读取活动规则…</p>;
  return (
    <div className="draw-rules" data-testid="draw-rules">
      <p>
        活动时间：{moment(data.starts_at)} 至 {moment(data.ends_at)}
      </p>
      <p>{data.description}</p>
      <p>每位会员限抽一次，奖品即时发放到账户，可在会员中心的抽奖记录中查看。</p>
      <table className="draw-rules-prizes">
        <thead>
          <tr>
            <th>奖品</th>
            <th>说明</th>
            <th>剩余</th>
          </tr>
        </thead>
        <tbody>
          {data.prizes.map((prize) => (
            <tr key={prize.id} data-testid="draw-rule-prize">
              <td>{prize.name}</td>
              <td>{prize.remarks}</td>
              <td>{prize.kind === 0 ? '—' : `${Math.max(0, prize.stock - prize.handed)} 份`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The activities running now, as ads; another one can be opened in the popup. */
function DrawAdStrip({ current, onOpen, locked }: { current: number; onOpen: (id: number) => void; locked: boolean }) {
  const ads = useQuery(drawAdsQuery());
  const list = ads.data?.list ?? [];
  if (list.length === 0) return null;
  return (
    <div className="draw-ads" data-testid="draw-ads">
      <div className="draw-winners-title">正在进行的抽奖活动</div>
      <ul>
        {list.map((ad) => (
          <li key={ad.id} data-testid="draw-ad">
            <strong>{ad.title}</strong>
            <span className="muted">
              {ad.description} 截止 {moment(ad.ends_at)}
            </span>
            {ad.id === current ? (
              <Tag color="red">当前活动</Tag>
            ) : (
              <Button size="small" disabled={locked} onClick={() => onOpen(ad.id)}>
                去抽奖
              </Button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The popup of the running activity `current`, which the member has not joined; hidden while
 * `enabled` is off (a route the popup leaves out), keeping what the member did in it. */
export default function DrawDialog({ enabled, current, onClosed }: { enabled: boolean; current: number; onClosed: () => void }) {
  const { modal } = useUi();
  const drawOnce = useDraw();
  const [drawing, setDrawing] = useState(false);
  const [result, setResult] = useState<DrawResult | null>(null);
  const [chosen, setChosen] = useState<number | null>(null);
  const [rulesOpen, setRulesOpen] = useState(false);
  // An ad may switch the popup to another activity.
  const id = chosen ?? current;
  const activity = useQuery({ ...drawActivityQuery(id), enabled });
  const closeForGood = () => {
    sessionStorage.setItem(DRAW_CLOSED, '1');
    onClosed();
  };
  const close = () => {
    if (!drawing) {
      closeForGood();
      return;
    }
    modal.confirm({
      title: '温馨提示',
      content: '抽奖进行中 , 如果关闭后未出结果 , 请移步至个人中心查看结果。',
      okText: '关闭',
      cancelText: '取消',
      // §8's words as they are, without the space antd puts between two characters.
      okButtonProps: { autoInsertSpace: false },
      cancelButtonProps: { autoInsertSpace: false },
      onOk: closeForGood,
    });
  };
  const draw = async () => {
    if (drawing) return;
    setDrawing(true);
    try {
      setResult(await drawOnce.mutateAsync(id));
    } catch {
      // Told by the API client.
    } finally {
      setDrawing(false);
    }
  };
  const open = (other: number) => {
    setChosen(other);
    setResult(null);
    setRulesOpen(false);
  };
  if (!enabled || !activity.data) return null;
  const data = activity.data;
  const joined = data.is_join === 1 && !result;
  return (
    <Modal
      open
      title={data.title}
      onCancel={close}
      maskClosable={false}
      keyboard={!drawing}
      footer={null}
      className="draw-popup"
      width={560}
    >
      <p className="muted">
        {data.description}{' '}
        <a onClick={() => setRulesOpen(!rulesOpen)} aria-expanded={rulesOpen}>
          {rulesOpen ? '收起规则' : '活动规则'}
        </a>
      </p>
      {rulesOpen && <DrawRules id={data.id} />}
      <div className={drawing ? 'draw-prizes drawing' : 'draw-prizes'} data-testid="draw-prizes">
        {data.prizes.map((prize) => (
          <div key={prize.id} className={result?.prize_id === prize.id ? 'draw-prize won' : 'draw-prize'}>
            <strong>{prize.name}</strong>
            <span className="muted">{prize.remarks}</span>
          </div>
        ))}
      </div>
      {result ? (
        <div className="draw-result" data-testid="draw-result">
          <p>{drawMessage(result)}</p>
          <Button type="primary" onClick={closeForGood}>
            知道了
          </Button>
        </div>
      ) : joined ? (
        <p className="draw-joined">您已参与过本活动</p>
      ) : (
        <Button type="primary" danger size="large" block loading={drawing} onClick={() => void draw()}>
          {drawing ? '抽奖中…' : '立即抽奖'}
        </Button>
      )}
      <WinnerStrip id={data.id} />
      <DrawAdStrip current={data.id} onOpen={open} locked={drawing} />
    </Modal>
  );
}
