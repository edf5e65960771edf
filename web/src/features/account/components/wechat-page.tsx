// 绑定微信 (/register/wechat): binds the member's WeChat account through the provider's
// authorize page, which sends the member back here with `code` and `state`; unbinds it.
import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { Button, Card, Result, Skeleton } from 'antd';
import { WechatOutlined } from '@ant-design/icons';
import { useAuthorizeWechat, useBindWechat, useRefresh, useUnbindWechat, wechatQuery } from '../api';
import { keys } from '@/lib/query-keys';
import { useUi } from '@/lib/ui';

export function WechatPage() {
  const [search, setSearch] = useSearchParams();
  const wechat = useQuery(wechatQuery());
  const refresh = useRefresh();
  const client = useQueryClient();
  const { mutateAsync: bind } = useBindWechat();
  const authorizeWechat = useAuthorizeWechat();
  const unbindWechat = useUnbindWechat();
  const { message, modal } = useUi();
  const [busy, setBusy] = useState(false);
  const code = search.get('code');
  const state = search.get('state');
  const binding = useRef(false);

  // Back from the provider: bind once, then leave the code out of the address.
  useEffect(() => {
    if (!code || !state || binding.current) return;
    binding.current = true;
    void (async () => {
      try {
        // The answer is the new state: shown at once, whatever a refetch in flight answers.
        const bound = await bind({ code, state });
        client.setQueryData(keys.account.wechat(), bound);
        message.success('绑定成功');
      } catch {
        // Told by the API client.
      } finally {
        setSearch({}, { replace: true });
        await refresh();
      }
    })();
  }, [code, state, message, refresh, setSearch, client, bind]);

  const authorize = async () => {
    setBusy(true);
    try {
      const { url } = await authorizeWechat.mutateAsync();
      window.location.assign(url);
    } catch {
      setBusy(false);
    }
  };
  const unbind = () =>
    modal.confirm({
      title: '温馨提示',
      content: '确定解除微信绑定吗?',
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        try {
          await unbindWechat.mutateAsync();
          message.success('已解除绑定');
          await refresh();
        } catch {
          // Told by the API client.
        }
      },
    });

  const data = wechat.data;
  return (
    <div className="container wechat-page">
      <Card title="绑定微信" className="wechat-card">
        {!data || (code && state) ? (
          <Skeleton active />
        ) : !data.enabled ? (
          <Result status="info" title="暂未开通微信登录" extra={<Link to="/zhzx/basic">返回账户中心</Link>} />
        ) : data.bound ? (
          <Result
            icon={<WechatOutlined style={{ color: '#07c160' }} />}
            title={`已绑定微信：${data.name || '微信用户'}`}
            extra={[
              <Button key="unbind" onClick={unbind}>
                解除绑定
              </Button>,
              <Link key="back" to="/zhzx/basic">
                返回账户中心
              </Link>,
            ]}
          />
        ) : (
          <Result
            icon={<WechatOutlined style={{ color: '#07c160' }} />}
            title="绑定微信后，可用微信快捷登录"
            extra={
              <Button type="primary" loading={busy} onClick={() => void authorize()}>
                前往微信授权
              </Button>
            }
          />
        )}
      </Card>
    </div>
  );
}
