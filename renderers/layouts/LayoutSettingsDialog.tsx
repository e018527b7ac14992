/**
 * The layout settings dialog: for the list's current layout, the
 * fields it reads, offering only fields of fitting types — calendar: a start Date field and either
 * an end Date field or a Number duration field (one excludes the other); kanban: an Option field;
 * map: a GeoPoint field and where the map opens — and, for all, the fields making an item's title.
 * Saves only what changed, `null` removing a key; settings that no longer fit show as unset.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import { fieldType } from '../../definitions/field-types/index.ts';
import { fittingFields, validLayoutSettings, type LayoutKind, type LayoutSettings } from '../../definitions/layout-settings.ts';
import { ModalDialog } from '../dialogs/ModalDialog.tsx';
import { useFormat } from '../messages/use-format.ts';

export interface LayoutSettingsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  kind: Exclude<LayoutKind, 'table'>;
  schema: readonly SchemaField[];
  settings: LayoutSettings;
  /** Keys to change: a value sets it, null removes it. */
  onSave: (patch: { [K in keyof LayoutSettings]?: LayoutSettings[K] | null }) => void;
  saving?: boolean;
}

type EndMode = 'none' | 'end' | 'duration';

interface Draft {
  startKey: string;
  endMode: EndMode;
  endKey: string;
  durationKey: string;
  activeField: string;
  titleKeys: string[];
  lat: string;
  lng: string;
  zoom: string;
}

const draftOf = (settings: LayoutSettings): Draft => ({
  startKey: settings.startKey ?? '',
  endMode: settings.endKey ? 'end' : settings.durationKey ? 'duration' : 'none',
  endKey: settings.endKey ?? '',
  durationKey: settings.durationKey ?? '',
  activeField: settings.activeField ?? '',
  titleKeys: settings.titleKeys ?? [],
  lat: settings.center ? String(settings.center.lat) : '',
  lng: settings.center ? String(settings.center.lng) : '',
  zoom: settings.center?.zoom !== undefined ? String(settings.center.zoom) : '',
});

const titleCandidates = (schema: readonly SchemaField[]) => schema.filter((field) => fieldType(field.type)?.storage.kind === 'column');

/** A number typed in a box, or undefined when empty or out of range. */
const numberIn = (text: string, min: number, max: number, integer = false): number | undefined => {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) return undefined;
  return value;
};

export function LayoutSettingsDialog({ open, onOpenChange, kind, schema, settings, onSave, saving = false }: LayoutSettingsDialogProps) {
  const format = useFormat();
  const id = useId();
  const usable = validLayoutSettings(schema, kind, settings);
  const [draft, setDraft] = useState<Draft>(() => draftOf(usable));
  const [centerError, setCenterError] = useState(false);
  // Each opening starts from the settings as saved (not on every change of them while open).
  useEffect(() => {
    if (open) {
      setDraft(draftOf(validLayoutSettings(schema, kind, settings)));
      setCenterError(false);
    }
  }, [open, kind]);

  const change = (next: Partial<Draft>) => setDraft((current) => ({ ...current, ...next }));
  const dates = fittingFields(schema, 'calendar', 'startKey');
  const numbers = fittingFields(schema, 'calendar', 'durationKey');
  const active = fittingFields(schema, kind === 'map' ? 'map' : 'kanban', 'activeField');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const patch: { [K in keyof LayoutSettings]?: LayoutSettings[K] | null } = {};
    const set = <K extends 'startKey' | 'endKey' | 'durationKey' | 'activeField'>(key: K, value: string) => {
      if (value) {
        if (value !== settings[key]) patch[key] = value;
      } else if (settings[key] !== undefined) patch[key] = null;
    };
    if (kind === 'calendar') {
      set('startKey', draft.startKey);
      set('endKey', draft.endMode === 'end' ? draft.endKey : '');
      set('durationKey', draft.endMode === 'duration' ? draft.durationKey : '');
    } else {
      set('activeField', draft.activeField);
    }
    if (kind === 'map') {
      const anyCenter = draft.lat.trim() !== '' || draft.lng.trim() !== '' || draft.zoom.trim() !== '';
      const lat = numberIn(draft.lat, -90, 90);
      const lng = numberIn(draft.lng, -180, 180);
      const zoom = numberIn(draft.zoom, 0, 20, true);
      if (anyCenter && (lat === undefined || lng === undefined || (draft.zoom.trim() !== '' && zoom === undefined))) {
        setCenterError(true);
        return;
      }
      if (lat !== undefined && lng !== undefined) patch.center = { lat, lng, ...(zoom !== undefined ? { zoom } : {}) };
      else if (settings.center) patch.center = null;
    }
    const titles = draft.titleKeys.filter((slug) => schema.some((field) => field.slug === slug));
    if (titles.join('\n') !== (settings.titleKeys ?? []).join('\n')) patch.titleKeys = titles.length ? titles : null;
    if (Object.keys(patch).length) onSave(patch);
    onOpenChange(false);
  };

  const select = (key: 'startKey' | 'endKey' | 'durationKey' | 'activeField', label: string, choices: SchemaField[], help?: string) => (
    <div className="field">
      <label className="field-label" htmlFor={`${id}-${key}`}>
        {label}
      </label>
      <select id={`${id}-${key}`} className="input" value={draft[key]} onChange={(event) => change({ [key]: event.target.value })}>
        <option value="">{format('layout.settings.noField')}</option>
        {choices.map((field) => (
          <option key={field.slug} value={field.slug}>
            {field.name}
          </option>
        ))}
      </select>
      {choices.length === 0 ? <p className="field-help">{format('layout.settings.noFittingField')}</p> : help ? <p className="field-help">{help}</p> : null}
    </div>
  );

  return (
    <ModalDialog open={open} onOpenChange={onOpenChange} title={format('layout.settings.title')} name="layoutSettings" widthPx={520}>
      <form className="form" noValidate onSubmit={submit}>
        {kind === 'calendar' ? (
          <>
            {select('startKey', format('layout.settings.startKey'), dates)}
            <fieldset className="choices">
              <legend className="field-label">{format('layout.settings.endMode')}</legend>
              {(['none', 'end', 'duration'] as const).map((mode) => (
                <label key={mode} className="choice">
                  <input type="radio" name={`${id}-endMode`} value={mode} checked={draft.endMode === mode} onChange={() => change({ endMode: mode })} />
                  {format(`layout.settings.endMode.${mode}`)}
                </label>
              ))}
            </fieldset>
            {draft.endMode === 'end' ? select('endKey', format('layout.settings.endKey'), dates) : null}
            {draft.endMode === 'duration' ? select('durationKey', format('layout.settings.durationKey'), numbers, format('layout.settings.durationHelp')) : null}
          </>
        ) : (
          select('activeField', format(kind === 'map' ? 'layout.settings.geoField' : 'layout.settings.optionField'), active)
        )}
        {kind === 'map' ? (
          <fieldset className="choices">
            <legend className="field-label">{format('layout.settings.center')}</legend>
            <label className="field">
              <span>{format('layout.settings.centerLat')}</span>
              <input className="input" inputMode="decimal" value={draft.lat} onChange={(event) => change({ lat: event.target.value })} />
            </label>
            <label className="field">
              <span>{format('layout.settings.centerLng')}</span>
              <input className="input" inputMode="decimal" value={draft.lng} onChange={(event) => change({ lng: event.target.value })} />
            </label>
            <label className="field">
              <span>{format('layout.settings.zoom')}</span>
              <input className="input" inputMode="numeric" placeholder="6" value={draft.zoom} onChange={(event) => change({ zoom: event.target.value })} />
            </label>
            {centerError ? (
              <p className="field-error" role="alert">
                {format('layout.settings.centerInvalid')}
              </p>
            ) : null}
          </fieldset>
        ) : null}
        <fieldset className="choices">
          <legend className="field-label">{format('layout.settings.titleKeys')}</legend>
          {titleCandidates(schema).map((field) => (
            <label key={field.slug} className="choice">
              <input
                type="checkbox"
                checked={draft.titleKeys.includes(field.slug)}
                onChange={(event) =>
                  change({ titleKeys: event.target.checked ? [...draft.titleKeys, field.slug] : draft.titleKeys.filter((slug) => slug !== field.slug) })
                }
              />
              {field.name}
            </label>
          ))}
        </fieldset>
        <div className="dialog-actions">
          <button type="button" className="button" onClick={() => onOpenChange(false)}>
            {format('form.cancel')}
          </button>
          <button type="submit" className="button button-primary" disabled={saving}>
            {format('layout.settings.save')}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
