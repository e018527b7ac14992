/** The platform admin area's frame (docs/admin.md): its heading, sub-navigation and the child screen. */
import { NavLink, Outlet } from 'react-router';
import { routePath } from '../../../definitions/route-path.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';

const sections = [
  { route: 'metrics', label: 'route.metrics.title' },
  { route: 'billingAdmin', label: 'route.billingAdmin.title' },
  { route: 'userAdmin', label: 'route.userAdmin.title' },
  { route: 'auditLog', label: 'route.auditLog.title' },
] as const;

export default function AdminAreaScreen() {
  const format = useFormat();
  return (
    <div className="admin-area">
      <h1>{format('route.admin.title')}</h1>
      <nav aria-label={format('route.admin.title')} className="admin-nav">
        {sections.map((section) => (
          <NavLink key={section.route} to={routePath(section.route)}>
            {format(section.label)}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
