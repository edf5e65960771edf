// The redirects that carry a path's parameters.
import { Navigate, useParams } from 'react-router';
import { redirectTarget } from '../routes';

/** A redirect that carries the path's parameters over (`/order/wl/:id` → `/order/info/:id`). */
export function RedirectTo({ to }: { to: string }) {
  return <Navigate to={redirectTarget(to, useParams())} replace />;
}
