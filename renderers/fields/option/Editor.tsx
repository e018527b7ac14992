/**
 * Option: a dropdown of the field's options (radix Select: arrow keys, Enter, typeahead, Escape)
 * that opens and closes after the product's short delay (about 100 ms). The value is
 * the option as the server stores it, `{_id, value}`, or null for "No option".
 */
import { useEffect, useRef, useState } from 'react';
import { Select } from 'radix-ui';
import { Check, ChevronDown } from 'lucide-react';
import { ui } from '../../../definitions/constants.ts';
import { isPlainObject } from '../../../definitions/field-types/support.ts';
import type { OptionChoice } from '../../../definitions/field-types/index.ts';
import { useFormat } from '../../messages/use-format.ts';
import { describedByOf } from '../editor-support.ts';
import { EditorMessages, messagesId } from '../EditorMessages.tsx';
import type { EditorProps } from '../editor-types.ts';

/** The item standing for "no option": a colon can never be in an option id. */
const none = ':none';

export function OptionEditor({ field, value, onChange, onBlur, error, disabled, required, id, labelledBy, describedBy }: EditorProps) {
  const format = useFormat();
  const [open, setOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const changeOpen = (next: boolean) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOpen(next), ui.dropdownDelayMs);
  };
  const options: OptionChoice[] = field.options ?? [];
  const current = isPlainObject(value) && typeof value._id === 'string' ? { _id: value._id, value: typeof value.value === 'string' ? value.value : value._id } : undefined;
  // A stored choice the field no longer offers is still shown, so the person sees what is there.
  const stale = current && !options.some((option) => option._id === current._id) ? current : undefined;
  return (
    <div className="editor editor-option">
      <Select.Root
        value={current?._id ?? ''}
        open={open}
        onOpenChange={changeOpen}
        disabled={disabled}
        onValueChange={(chosen) => {
          if (chosen === none) return onChange(null);
          const option = options.find((candidate) => candidate._id === chosen);
          if (option) onChange({ _id: option._id, value: option.value });
        }}
      >
        <Select.Trigger
          id={id}
          className="input select-trigger"
          aria-labelledby={labelledBy}
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedByOf(describedBy, error && messagesId(id))}
          onBlur={onBlur}
        >
          <Select.Value placeholder={format('editor.option.placeholder')} />
          <Select.Icon className="select-icon">
            <ChevronDown aria-hidden="true" size={16} />
          </Select.Icon>
        </Select.Trigger>
        <Select.Portal>
          <Select.Content className="menu select-content" position="popper" sideOffset={4}>
            <Select.Viewport>
              <Select.Item className="menu-item select-item" value={none}>
                <Select.ItemText>{format('editor.option.none')}</Select.ItemText>
              </Select.Item>
              {[...options, ...(stale ? [stale] : [])].map((option) => (
                <Select.Item key={option._id} className="menu-item select-item" value={option._id} disabled={option === stale}>
                  <Select.ItemText>{option.value}</Select.ItemText>
                  <Select.ItemIndicator className="select-indicator">
                    <Check aria-hidden="true" size={14} />
                  </Select.ItemIndicator>
                </Select.Item>
              ))}
            </Select.Viewport>
          </Select.Content>
        </Select.Portal>
      </Select.Root>
      <EditorMessages id={messagesId(id)} messages={[error]} />
    </div>
  );
}
