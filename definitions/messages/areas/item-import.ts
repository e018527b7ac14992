/** The Import Items dialog's texts (definitions/messages/format.ts): imported by the item list's menu before it renders. */
import { registerMessages } from '../format.ts';
import messages from './item-import.json' with { type: 'json' };

registerMessages(messages);
