import { lazy, Suspense, useSyncExternalStore } from 'react';
import { toastDemand } from './notify.ts';

const SonnerToaster = lazy(() => import('./SonnerToaster.tsx'));

/** Mount once, anywhere: draws the toast area as soon as the first toast is asked for. */
export function ToastHost({ theme }: { theme: 'light' | 'dark' }) {
  const wanted = useSyncExternalStore(toastDemand.subscribe, () => toastDemand.wanted, () => false);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster theme={theme} />
    </Suspense>
  );
}
