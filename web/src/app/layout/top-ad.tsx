// The dismissible top-right ad (§4); once closed it stays closed for the session.
import { useState } from 'react';
import { Link } from 'react-router';
import { CloseOutlined } from '@ant-design/icons';
import { useAd } from '@/api/common';

const DISMISSED = 'top-ad-dismissed';

export function TopAd() {
  const [dismissed, setDismissed] = useState(() => sessionStorage.getItem(DISMISSED) === '1');
  const ad = useAd('top');
  const first = ad.data?.[0];
  if (dismissed || !first) return null;
  return (
    <aside className="top-ad" aria-label="广告">
      <Link to={first.url}>
        <img src={first.image} alt={first.title} />
      </Link>
      <button
        type="button"
        aria-label="关闭广告"
        onClick={() => {
          sessionStorage.setItem(DISMISSED, '1');
          setDismissed(true);
        }}
      >
        <CloseOutlined />
      </button>
    </aside>
  );
}
