// A goods' price where the shop shows one, or what stands in its place for those who may not
// see prices yet (docs/compliance.md): 登录可见 for a visitor, linking to the login, and
// 认证后可见 for a member not yet approved, linking to its certificates.
import { Link } from 'react-router';
import { yuan } from '@/lib/money';

/** What stands in place of a price; `text` is the answer's `price_text`. */
export function HiddenPrice({ text }: { text: string }) {
  return (
    <Link to={text === '登录可见' ? '/login' : '/zhzx/zzzj'} className="price-hidden" data-testid="price-hidden">
      {text}
    </Link>
  );
}

/** `price` as money, or the answer's `price_text` while prices are hidden. */
export function Price({ price, text, className = 'price' }: { price: string | null; text: string; className?: string }) {
  if (price === null) return <HiddenPrice text={text} />;
  return <span className={className}>{yuan(price)}</span>;
}
