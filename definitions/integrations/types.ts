/**
 * The shape of an integration of the catalogue (docs/integrations.md): a connector a project
 * switches on. One folder per integration, as with field types; the registry (index.ts) lists
 * them. Each is data the console draws and the server checks: its settings are a form definition
 * (drawn by the generic form renderer, validated by the same JSON Schema on the server), the
 * settings that are secrets (stored encrypted, never answered), and what it reacts to. Its
 * handler lives on the server under the same id (server/integrations/).
 */
import type { FormDefinition } from '../forms/types.ts';
import type { MessageKey } from '../messages/format.ts';

/** Item events of the collections an instance listens to, and its own schedule. */
export type IntegrationEvent = 'create' | 'update' | 'delete' | 'schedule';

export const itemEvents = ['create', 'update', 'delete'] as const satisfies readonly IntegrationEvent[];

export interface IntegrationDefinition {
  /** Stable id: the instance rows and the server's handler use it. Lower case, digits and `-`. */
  id: string;
  name: MessageKey;
  description: MessageKey;
  /** A lucide-react icon name. */
  icon: string;
  /** The instance's settings; `schema` is the whole settings object as sent and stored. */
  settings: FormDefinition;
  /** Settings properties that are secrets: stored encrypted, never answered (only whether set). */
  secrets: readonly string[];
  /** Secrets an instance cannot work without: refused when neither sent nor stored. */
  requiredSecrets: readonly string[];
  /** Settings that are addresses the server will call: checked by the URL guard when saved (and at every call). */
  addresses: readonly string[];
  /** What it can react to. `schedule` needs a cron expression in the instance. */
  events: readonly IntegrationEvent[];
  /** Which collections an instance names: any number of lists (nested ones too), or exactly one top-level collection. */
  collections: 'many' | 'one';
  /** What "send a test" does, shown beside the button. */
  testHelp: MessageKey;
}
