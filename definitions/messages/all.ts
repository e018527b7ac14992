/** Every area of the catalogue at once, for the server and the tests (definitions/messages/format.ts). */
import './areas/admin.ts';
import './areas/studio.ts';
import './areas/mail.ts';
import './areas/integrations.ts';
import './areas/functions.ts';
import './areas/item-import.ts';
import en from './en.json' with { type: 'json' };
import admin from './areas/admin.json' with { type: 'json' };
import studio from './areas/studio.json' with { type: 'json' };
import mail from './areas/mail.json' with { type: 'json' };
import integrations from './areas/integrations.json' with { type: 'json' };
import functions from './areas/functions.json' with { type: 'json' };
import itemImport from './areas/item-import.json' with { type: 'json' };

/** The whole catalogue as one object, as the tests read it. */
export const allMessages: Readonly<Record<string, string>> = { ...en, ...admin, ...studio, ...mail, ...integrations, ...functions, ...itemImport };
