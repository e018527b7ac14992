import { Link } from 'react-router';
import { routePath } from '../../definitions/route-path.ts';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { useConfig } from '../api/queries.ts';

/** A link to the Dev mailbox, drawn only while the server keeps mail in its outbox. */
export function DevMailboxLink({ className }: { className?: string }) {
  const format = useFormat();
  const { data: config } = useConfig();
  if (!config?.devMailbox) return null;
  return (
    <Link className={className} to={routePath('devMailbox')}>
      {format('nav.devMailbox')}
    </Link>
  );
}
