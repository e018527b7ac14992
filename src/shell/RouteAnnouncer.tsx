import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/** Tells screen readers the new page's name after a client-side navigation (a page load says it anyway). */
export function RouteAnnouncer({ title }: { title: string }) {
  const { pathname } = useLocation();
  const first = useRef(true);
  const [message, setMessage] = useState('');
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setMessage(title);
  }, [pathname, title]);
  return (
    <div className="visually-hidden" aria-live="polite" aria-atomic="true">
      {message}
    </div>
  );
}
