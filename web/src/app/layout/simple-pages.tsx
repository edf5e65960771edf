// The small screens: /404, /noActivity, the /loading redirect screens, eleven_index (each loaded
// on first use, app/router.tsx).
import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button, Result, Spin } from 'antd';

export function NotFoundPage() {
  return (
    <Result
      status="404"
      title="404"
      subTitle="抱歉，您访问的页面不存在"
      extra={
        <Link to="/">
          <Button type="primary">返回首页</Button>
        </Link>
      }
    />
  );
}

export function NoActivityPage() {
  return (
    <Result
      status="warning"
      title="活动不存在"
      subTitle="该活动不存在或已结束"
      extra={
        <Link to="/">
          <Button type="primary">返回首页</Button>
        </Link>
      }
    />
  );
}

/** /loading and /loading/activity: forward to `?to=` or the home page. */
export function LoadingPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  useEffect(() => {
    const to = params.get('to');
    navigate(to && to.startsWith('/') ? to : '/noActivity', { replace: true });
  }, [navigate, params]);
  return (
    <div className="loading-page">
      <Spin size="large" />
      <p>页面加载中…</p>
    </div>
  );
}

/** eleven_index leaves the app for the main site root. */
export function LeavePage() {
  useEffect(() => {
    window.location.replace('/');
  }, []);
  return null;
}
