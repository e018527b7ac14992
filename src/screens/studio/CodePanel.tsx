/**
 * Code for the request (docs/studio.md "Code for a request"): curl, fetch and the BagelDB client,
 * made by definitions/studio-request.ts, with a copy button that says "Copied!" for 750 ms.
 */
import { useEffect, useRef, useState } from 'react';
import { Tabs } from 'radix-ui';
import { Copy } from 'lucide-react';
import { codeFor, codeKinds, type CodeKind, type StudioRequest } from '../../../definitions/studio-request.ts';
import type { MessageKey } from '../../../definitions/messages/format.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';

/** How long the copy button says "Copied!". */
export const copiedMs = 750;

export function CodePanel({ request, origin }: { request: StudioRequest; origin: string }) {
  const format = useFormat();
  const [kind, setKind] = useState<CodeKind>('client');
  return (
    <section className="studio-code" aria-label={format('studio.code')}>
      <Tabs.Root className="tabs" value={kind} onValueChange={(value) => setKind(value as CodeKind)}>
        <Tabs.List className="tab-list" aria-label={format('studio.code')}>
          {codeKinds.map((candidate) => (
            <Tabs.Trigger key={candidate} className="tab" value={candidate}>
              {format(`studio.code.${candidate}` as MessageKey)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {codeKinds.map((candidate) => (
          <Tabs.Content key={candidate} className="tab-panel" value={candidate}>
            {candidate === kind ? <CodeBlock text={codeFor(candidate, request, { origin })} label={format(`studio.code.${candidate}` as MessageKey)} /> : null}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </section>
  );
}

function CodeBlock({ text, label }: { text: string; label: string }) {
  const format = useFormat();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), copiedMs);
  };
  return (
    <div className="studio-code-block">
      <button type="button" className="button button-small studio-copy" onClick={() => void copy()}>
        <Copy aria-hidden="true" size={14} />
        <span aria-live="polite">{copied ? format('studio.copied') : format('studio.copy')}</span>
      </button>
      <pre tabIndex={0} aria-label={label} data-testid="studio-code">
        <code>{text}</code>
      </pre>
    </div>
  );
}
