/** The help line and the problem of one attribute, with the ids its input's aria-describedby names. */
export function HelpAndError({ id, help, error }: { id: string; help?: string | null | undefined; error?: string | null | undefined }) {
  return (
    <>
      {help ? (
        <p className="field-help" id={`${id}-help`}>
          {help}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </>
  );
}
