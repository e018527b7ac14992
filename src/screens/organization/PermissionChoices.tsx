/**
 * The permission choices of a member or an invitation: read is always on;
 * choosing admin forces create, update and delete on and holds them there.
 */
import { useId } from 'react';
import { flagLabels, isChoiceLocked, permissionChoices, shownChoices, toggleChoice } from '../../../definitions/membership.ts';
import type { MemberPermissions } from '../../../definitions/permissions.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';

export interface PermissionChoicesProps {
  legend: string;
  value: Partial<MemberPermissions>;
  onChange: (value: MemberPermissions) => void;
  /** Draws the legend for screen readers only (a row of the invite dialog names it elsewhere). */
  hideLegend?: boolean;
  disabled?: boolean;
}

export function PermissionChoices({ legend, value, onChange, hideLegend = false, disabled = false }: PermissionChoicesProps) {
  const format = useFormat();
  const id = useId();
  const shown = shownChoices(value);
  return (
    <fieldset className="choices" disabled={disabled}>
      <legend className={hideLegend ? 'visually-hidden' : 'field-label'}>{legend}</legend>
      <label className="choice" htmlFor={`${id}-read`}>
        <input id={`${id}-read`} type="checkbox" checked disabled readOnly />
        {format(flagLabels.read)}
      </label>
      {permissionChoices.map((flag) => (
        <label className="choice" key={flag} htmlFor={`${id}-${flag}`}>
          <input
            id={`${id}-${flag}`}
            type="checkbox"
            checked={shown[flag]}
            disabled={isChoiceLocked(value, flag)}
            onChange={(event) => onChange(toggleChoice(value, flag, event.target.checked))}
          />
          {format(flagLabels[flag])}
        </label>
      ))}
    </fieldset>
  );
}
