/**
 * The platform admin area's frame (docs/admin.md): its heading, a sub-navigation of the four
 * sections and the child screen. `/admin` itself shows Metrics, so that link is current there too.
 */
import '../../../definitions/messages/areas/admin.ts';
import { Link, Outlet, useMatches } from 'react-router';
import type { MessageKey } from '../../../definitions/messages/format.ts';
import { routePath } from '../../../definitions/route-path.ts';
import type { RouteHandle } from '../../../renderers/router/types.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import './admin.css';

const sections: readonly { route: string; label: MessageKey; current: readonly string[] }[] = [
  { route: 'metrics', label: 'route.metrics.title', current: ['metrics', 'adminHome'] },
  { route: 'billingAdmin', label: 'route.billingAdmin.title', current: ['billingAdmin'] },
  { route: 'userAdmin', label: 'route.userAdmin.title', current: ['userAdmin'] },
  { route: 'auditLog', label: 'route.auditLog.title', current: ['auditLog'] },
];

export default function AdminAreaScreen() {
  const format = useFormat();
  const matched = new Set(useMatches().map((match) => (match.handle as RouteHandle | undefined)?.name));
  return (
    <section className="page admin-area" aria-labelledby="admin-area-title">
      <header className="page-header">
        <h1 id="admin-area-title">{format('route.admin.title')}</h1>
      </header>
      <p className="page-intro">{format('admin.area.intro')}</p>
      <nav aria-label={format('admin.area.sections')} className="admin-nav">
        <ul>
          {sections.map((section) => {
            const current = section.current.some((name) => matched.has(name));
            return (
              <li key={section.route}>
                <Link className="admin-nav-link" to={routePath(section.route)} aria-current={current ? 'page' : undefined}>
                  {format(section.label)}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="admin-content">
        <Outlet />
      </div>
    </section>
  );
}
