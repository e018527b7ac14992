import type { MessageKey } from '../../definitions/messages/format.ts';
import { routePath } from '../../definitions/route-path.ts';

export interface NavEntry {
  to: string;
  label: MessageKey;
}

/**
 * The console's top navigation; the Dev mailbox joins only while the server offers it, Admin only
 * for platform super-admins (the server refuses everyone else's admin calls regardless).
 */
export function navEntries(devMailbox: boolean, superAdmin = false): NavEntry[] {
  return [
    { to: routePath('home'), label: 'nav.home' },
    { to: routePath('dovs'), label: 'nav.docs' },
    ...(devMailbox ? [{ to: routePath('devMailbox'), label: 'nav.devMailbox' as const }] : []),
    ...(superAdmin ? [{ to: routePath('admin'), label: 'nav.admin' as const }] : []),
  ];
}
