import { useEffect, useState } from 'react';
import { ui } from '../../definitions/constants.ts';
import { useFormat } from '../../renderers/messages/use-format.ts';

/** Shown while the first page loads; the spinner waits a moment so fast loads do not flicker. */
export function LoadingScreen() {
  const format = useFormat();
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(true), ui.spinnerDelayMs);
    return () => clearTimeout(timer);
  }, []);
  return (
    <div className="loading-screen" role="status" aria-live="polite">
      {visible ? (
        <>
          <span className="spinner" aria-hidden="true" />
          <span>{format('app.loading')}</span>
        </>
      ) : null}
    </div>
  );
}
