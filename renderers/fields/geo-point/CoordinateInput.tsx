/** One coordinate of the GeoPoint editor (latitude or longitude): a decimal text input with its label. */
export function CoordinateInput(props: {
  id: string;
  label: string;
  value: string;
  disabled?: boolean;
  required?: boolean;
  invalid: boolean;
  describedBy?: string;
  onChange: (text: string) => void;
  onBlur: () => void;
}) {
  const { id, label, value, disabled, required, invalid, describedBy, onChange, onBlur } = props;
  return (
    <span className="editor-geo-coordinate">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={value}
        disabled={disabled}
        aria-required={required || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
      />
    </span>
  );
}
