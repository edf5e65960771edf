// The login-style header: logo and the page's title, nothing to distract.
import { Link } from 'react-router';
import { Logo } from './header';

export function LoginHeader({ title }: { title: string }) {
  return (
    <header className="login-header">
      <div className="container login-header-inner">
        <Logo />
        <span className="login-header-title">{title}</span>
        <span className="login-header-links">
          <Link to="/">返回首页</Link>
        </span>
      </div>
    </header>
  );
}
