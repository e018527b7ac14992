/**
 * Shows a toast. The toast library loads with the first toast rather than with the page, so the
 * sign-in screen does not carry it; a toast asked for before the host is mounted waits for it.
 */
export type ToastKind = 'success' | 'error' | 'info' | 'warning';

export interface ToastRequest {
  kind: ToastKind;
  title: string;
  description?: string;
}

type Listener = () => void;
const wanting = new Set<Listener>();
let wanted = false;
let markMounted: () => void;
const mounted = new Promise<void>((resolve) => {
  markMounted = resolve;
});

/** For the host: whether a toast has been asked for yet, and a way to hear when one is. */
export const toastDemand = {
  get wanted() {
    return wanted;
  },
  subscribe(listener: Listener) {
    wanting.add(listener);
    return () => wanting.delete(listener);
  },
  mounted() {
    markMounted();
  },
};

export async function notify({ kind, title, description }: ToastRequest): Promise<void> {
  if (!wanted) {
    wanted = true;
    for (const listener of [...wanting]) listener();
  }
  const [{ toast }] = await Promise.all([import('sonner'), mounted]);
  toast[kind](title, description ? { description } : undefined);
}
