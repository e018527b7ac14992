import type { MessageKey } from '../../definitions/messages/format.ts';
import { routePath } from '../../definitions/route-path.ts';

export interface NavEntry {
  to: string;
  label: MessageKey;
}

/** The console's top navigation; the Dev mailbox joins only while the server offers it. */
export function navEntries(devMailbox: boolean): NavEntry[] {
  return [
    { to: routePath('home'), label: 'nav.home' },
    { to: routePath('dovs'), label: 'nav.docs' },
    ...(devMailbox ? [{ to: routePath('devMailbox'), label: 'nav.devMailbox' as const }] : []),
  ];
}
