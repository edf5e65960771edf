// The lucky-draw popup (§4, §8): shown only when the member has not joined the running activity
// (`is_join` 0), never on the routes §4 leaves out, and once closed not asked for again in the
// session. 立即抽奖 locks it; the server decides the prize, and the result appears 2 s after the
// press: "恭喜您 , 抽中{name} ( {remarks} )". Closing while drawing asks first.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { App as AntApp, Button, Modal } from 'antd';
import { api } from '@/lib/api';
import type { DrawActivity, DrawCheck, DrawResult } from '@/api/types';
import { DRAW_CLOSED, DRAW_DELAY, drawMessage, wait } from '../draw';
import { keys } from '@/lib/query-keys';

export function DrawPopup({ enabled }: { enabled: boolean }) {
  const { modal } = AntApp.useApp();
  const [closed, setClosed] = useState(() => sessionStorage.getItem(DRAW_CLOSED) === '1');
  const [drawing, setDrawing] = useState(false);
  const [result, setResult] = useState<DrawResult | null>(null);
  const check = useQuery({
    queryKey: keys.draw.simple(),
    queryFn: () => api.get<DrawCheck>('/api/draw/simple', { silent: true }),
    enabled: enabled && !closed,
    staleTime: Infinity,
    retry: false,
  });
  const id = check.data?.is_join === 0 ? check.data.id : null;
  const activity = useQuery({
    queryKey: keys.draw.activity(id),
    queryFn: () => api.get<DrawActivity>('/api/draw', { params: { id: id ?? 0 }, silent: true }),
    enabled: enabled && !closed && !!id,
    staleTime: Infinity,
    retry: false,
  });
  const closeForGood = () => {
    sessionStorage.setItem(DRAW_CLOSED, '1');
    setClosed(true);
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
    if (!id || drawing) return;
    setDrawing(true);
    try {
      const [drawn] = await Promise.all([api.post<DrawResult>('/api/draw', { id }), wait(DRAW_DELAY)]);
      setResult(drawn);
    } catch {
      // Told by the API client.
    } finally {
      setDrawing(false);
    }
  };
  if (!enabled || closed || !activity.data) return null;
  const data = activity.data;
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
      <p className="muted">{data.description}</p>
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
      ) : (
        <Button type="primary" danger size="large" block loading={drawing} onClick={() => void draw()}>
          {drawing ? '抽奖中…' : '立即抽奖'}
        </Button>
      )}
    </Modal>
  );
}
