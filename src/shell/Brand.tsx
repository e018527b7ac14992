import { Link } from 'react-router';
import { routePath } from '../../definitions/route-path.ts';
import { useFormat } from '../../renderers/messages/use-format.ts';

/** The product's mark and name, linking home. */
export function Brand() {
  const format = useFormat();
  return (
    <Link to={routePath('home')} className="brand">
      <svg aria-hidden="true" width="26" height="26" viewBox="0 0 32 32" className="brand-mark">
        <rect x="3" y="5" width="26" height="22" rx="5" fill="currentColor" opacity="0.18" />
        <rect x="7" y="9" width="18" height="5" rx="2" fill="currentColor" />
        <rect x="7" y="18" width="18" height="5" rx="2" fill="currentColor" opacity="0.7" />
      </svg>
      <span className="brand-name">{format('app.name')}</span>
    </Link>
  );
}
