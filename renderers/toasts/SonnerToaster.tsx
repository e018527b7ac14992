import { useEffect } from 'react';
import { Toaster } from 'sonner';
import { ui } from '../../definitions/constants.ts';
import { toastDemand } from './notify.ts';

/** The toast area (sonner), loaded with the first toast. */
export default function SonnerToaster({ theme }: { theme: 'light' | 'dark' }) {
  useEffect(() => toastDemand.mounted(), []);
  return <Toaster theme={theme} position="top-center" duration={ui.toastDurationMs} richColors />;
}
