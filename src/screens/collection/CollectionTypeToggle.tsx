/**
 * The Single/Multi collection type toggle: a radio group of two. Single is
 * refused (disabled, with the warning) while the collection holds more than one item.
 */
import { useId } from 'react';
import { ToggleGroup } from 'radix-ui';
import { useFormat } from '../../../renderers/messages/use-format.ts';

export interface CollectionTypeToggleProps {
  singleItem: boolean;
  onChange: (singleItem: boolean) => void;
  disabled?: boolean;
  /** Single cannot be chosen; `warning` says why. */
  singleDisabled?: boolean;
  warning?: string | null;
}

export function CollectionTypeToggle({ singleItem, onChange, disabled = false, singleDisabled = false, warning }: CollectionTypeToggleProps) {
  const format = useFormat();
  const id = useId();
  const describedBy = [`${id}-help`, warning ? `${id}-warning` : ''].filter(Boolean).join(' ');
  return (
    <div className="field">
      <span className="field-label" id={`${id}-label`}>
        {format('collectionSettings.type')}
      </span>
      <ToggleGroup.Root
        type="single"
        className="segmented"
        value={singleItem ? 'single' : 'multi'}
        // A click on the chosen segment would clear the value: there is always a type.
        onValueChange={(value) => {
          if (value === 'single' || value === 'multi') onChange(value === 'single');
        }}
        disabled={disabled}
        aria-labelledby={`${id}-label`}
        aria-describedby={describedBy}
      >
        <ToggleGroup.Item className="segment" value="multi">
          {format('collectionSettings.multi')}
        </ToggleGroup.Item>
        <ToggleGroup.Item className="segment" value="single" disabled={singleDisabled}>
          {format('collectionSettings.single')}
        </ToggleGroup.Item>
      </ToggleGroup.Root>
      <p id={`${id}-help`} className="field-help">
        {format('collectionSettings.typeHelp')}
      </p>
      {warning ? (
        <p id={`${id}-warning`} className="callout-warning collection-warning">
          {warning}
        </p>
      ) : null}
    </div>
  );
}
