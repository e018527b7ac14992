/**
 * The schema builder of a collection: the fields of one schema level in order,
 * drag to reorder, the create-new-field picker, per-field attributes and nested schema builders.
 * What the signed-in user may change mirrors the server's rules (the server decides).
 */
import { useId } from 'react';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import type { Collection, ProjectScope } from '../../../api/content.ts';
import { useCollections } from '../../../api/content-queries.ts';
import { useProjectActions } from '../../project/project-context.ts';
import { SchemaLevel } from './SchemaLevel.tsx';
import './schema-builder.css';

export interface SchemaBuilderProps {
  scope: ProjectScope;
  /** The saved collection whose schema is edited. */
  collection: Collection;
}

export function SchemaBuilder({ scope, collection }: SchemaBuilderProps) {
  const format = useFormat();
  const headingId = useId();
  const permitted = useProjectActions();
  const { data: collections } = useCollections(scope);
  const actions = { create: permitted.create, update: permitted.update, delete: permitted.delete };
  return (
    <section className="schema-builder" aria-labelledby={headingId}>
      <h2 id={headingId}>{format('schemaBuilder.title')}</h2>
      <p className="muted">{format('schemaBuilder.intro')}</p>
      {!actions.create && !actions.update && !actions.delete ? <p className="muted">{format('schemaBuilder.readOnly')}</p> : null}
      <SchemaLevel
        scope={scope}
        place={{ collectionID: collection.id, path: '' }}
        depth={0}
        label={format('schemaBuilder.fields', { name: collection.name })}
        initialFields={collection.schema}
        actions={actions}
        collections={collections}
      />
    </section>
  );
}
