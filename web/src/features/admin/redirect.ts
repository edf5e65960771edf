// Where the console goes after signing in: the console address the operator was headed for,
// never another site's nor the login itself (the address comes from the query string).

export function afterLogin(redirect: string | null): string {
  if (!redirect || !redirect.startsWith('/admin') || redirect.startsWith('//')) return '/admin';
  const path = redirect.split(/[?#]/)[0];
  if (path === '/admin/login' || !/^\/admin(\/|$)/.test(path)) return '/admin';
  return redirect;
}
