/**
 * The formatter every renderer and screen draws its text with. The default formats the shipped
 * catalogue (en.json); a test or a locale switch provides another.
 */
import { createContext } from 'react';
import type { Formatter } from '../../definitions/messages/create-formatter.ts';
import { formatMessage, type MessageKey } from '../../definitions/messages/format.ts';

export const MessagesContext = createContext<Formatter<MessageKey>>((key, values) => formatMessage(key, values));
