import { useContext } from 'react';
import { MessagesContext } from './messages-context.ts';

/** The catalogue formatter: `format('login.title')`, `format('member.removed', { user })`. */
export function useFormat() {
  return useContext(MessagesContext);
}
