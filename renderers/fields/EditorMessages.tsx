/** The messages under an editor: what it holds back first, then the page's error. */
export function EditorMessages({ id, messages }: { id: string; messages: readonly (string | undefined)[] }) {
  const shown = messages.filter((message): message is string => typeof message === 'string' && message !== '');
  if (shown.length === 0) return null;
  return (
    <p id={id} className="field-error">
      {shown.join(' ')}
    </p>
  );
}

/** The id the messages of the editor with control `id` take. */
export const messagesId = (id: string) => `${id}-messages`;
