import { useFormat } from '../../../renderers/messages/use-format.ts';

export default function AdminAuditScreen() {
  const format = useFormat();
  return <h2>{format('route.auditLog.title')}</h2>;
}
