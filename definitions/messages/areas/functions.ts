/** The Functions area's texts (definitions/messages/format.ts): imported by its screens before they render. */
import { registerMessages } from '../format.ts';
import messages from './functions.json' with { type: 'json' };

registerMessages(messages);
