/**
 * The create-new-field picker: every field type people may create, as the
 * registry lists them (Metadata is not creatable), each with its declared icon and label.
 */
import { useRef } from 'react';
import { ChevronDown, Plus } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { creatableFieldTypes } from '../../../../definitions/field-types/index.ts';
import { FieldTypeIcon } from '../../../../renderers/fields/FieldTypeIcon.tsx';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import { typeLabelKey } from './FieldCard.tsx';

export interface FieldTypePickerProps {
  onPick: (type: number) => void;
  disabled?: boolean;
  /** Names what the new field is added to, for screen readers (the button's text says the rest). */
  describedBy?: string;
}

export function FieldTypePicker({ onPick, disabled, describedBy }: FieldTypePickerProps) {
  const format = useFormat();
  // The draft appears once the menu has closed, so that its focus trap cannot keep the focus
  // and the draft's name field receives it instead of the menu's button.
  const picked = useRef<number | null>(null);
  return (
    <DropdownMenu.Root
      onOpenChange={(open) => {
        if (open) picked.current = null;
      }}
    >
      <DropdownMenu.Trigger className="button field-picker-trigger" disabled={disabled} aria-describedby={describedBy}>
        <Plus aria-hidden="true" size={18} />
        {format('schemaBuilder.newField')}
        <ChevronDown aria-hidden="true" size={16} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          className="menu field-picker"
          align="start"
          sideOffset={4}
          aria-label={format('schemaField.type')}
          onCloseAutoFocus={(event) => {
            const type = picked.current;
            if (type === null) return;
            event.preventDefault();
            picked.current = null;
            onPick(type);
          }}
        >
          {creatableFieldTypes.map((type) => (
            <DropdownMenu.Item
              key={type.code}
              className="menu-item"
              onSelect={() => {
                picked.current = type.code;
              }}
            >
              <FieldTypeIcon name={type.icon} />
              <span className="menu-item-text">{format(typeLabelKey(type.code))}</span>
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
