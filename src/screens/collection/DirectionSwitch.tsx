/** The RTL/LTR switch of a collection: on is right to left. */
import { useId } from 'react';
import { Switch } from 'radix-ui';
import { useFormat } from '../../../renderers/messages/use-format.ts';

export interface DirectionSwitchProps {
  rtlDirection: boolean;
  onChange: (rtlDirection: boolean) => void;
  disabled?: boolean;
}

export function DirectionSwitch({ rtlDirection, onChange, disabled = false }: DirectionSwitchProps) {
  const format = useFormat();
  const id = useId();
  return (
    <div className="field field-switch">
      <Switch.Root id={id} className="switch" checked={rtlDirection} disabled={disabled} aria-describedby={`${id}-help`} onCheckedChange={onChange}>
        <Switch.Thumb className="switch-thumb" />
      </Switch.Root>
      <label className="switch-label" htmlFor={id}>
        {format('collectionSettings.rtl')}
      </label>
      <p id={`${id}-help`} className="field-help">
        {format('collectionSettings.rtlHelp')}
      </p>
    </div>
  );
}
