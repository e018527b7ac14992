/**
 * One navigation blocker for several item forms. react-router keeps only the last blocker a page
 * registers, and a folded nested collection shows the parent item's form beside (and keeps the
 * hidden forms of) every level's item, each with its own unsaved changes. So the outermost host
 * registers the one blocker; each form registers with it how to tell whether a navigation would
 * lose its changes, and the host hands the held navigation to the first form that would lose
 * something, whose leave question then proceeds or resets it.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useBlocker, type Blocker, type BlockerFunction } from 'react-router';

interface GuardedForm {
  shouldBlock: BlockerFunction;
  onBlocked: (blocker: Blocker | null) => void;
}

interface LeaveGuardHostValue {
  register(form: GuardedForm): () => void;
  /** Whether another form than `except` would hold this navigation. */
  othersWouldBlock(args: Parameters<BlockerFunction>[0], except: GuardedForm | null): boolean;
  /** Counts navigations held and then refused (Stay): what follows the address can read it again. */
  refusals: number;
}

const LeaveGuardContext = createContext<LeaveGuardHostValue | null>(null);

/** The navigations refused so far under the host (0 without one). */
export function useLeaveRefusals(): number {
  return useContext(LeaveGuardContext)?.refusals ?? 0;
}

/** Registers the one blocker for the forms under it; inside another host it only passes its children through. */
export function LeaveGuardHost({ children }: { children: ReactNode }) {
  const parent = useContext(LeaveGuardContext);
  return parent ? <>{children}</> : <OwnHost>{children}</OwnHost>;
}

function OwnHost({ children }: { children: ReactNode }) {
  const forms = useRef(new Set<GuardedForm>());
  const asked = useRef<GuardedForm | null>(null);
  const [refusals, setRefusals] = useState(0);
  const shouldBlock = useCallback<BlockerFunction>((args) => {
    for (const form of forms.current) {
      if (form.shouldBlock(args)) {
        asked.current = form;
        return true;
      }
    }
    asked.current = null;
    return false;
  }, []);
  const blocker = useBlocker(shouldBlock);
  useEffect(() => {
    if (blocker.state !== 'blocked') {
      for (const form of forms.current) form.onBlocked(null);
      return;
    }
    const form = asked.current;
    if (!form || !forms.current.has(form)) {
      // The form that held it is gone: nothing is left to lose.
      blocker.proceed();
      return;
    }
    form.onBlocked({
      ...blocker,
      reset: () => {
        blocker.reset();
        setRefusals((n) => n + 1);
      },
    });
  }, [blocker]);
  const register = useCallback((form: GuardedForm) => {
    forms.current.add(form);
    return () => {
      forms.current.delete(form);
    };
  }, []);
  const othersWouldBlock = useCallback(
    (args: Parameters<BlockerFunction>[0], except: GuardedForm | null) => [...forms.current].some((form) => form !== except && form.shouldBlock(args)),
    [],
  );
  const value = useMemo<LeaveGuardHostValue>(() => ({ register, othersWouldBlock, refusals }), [register, othersWouldBlock, refusals]);
  return <LeaveGuardContext.Provider value={value}>{children}</LeaveGuardContext.Provider>;
}

/**
 * A form's side: registers `shouldBlock` with the host around it. `held` is the held navigation
 * while the form is the one asked about it, else null; `othersWouldBlock` tells whether another
 * form would hold a navigation (so a form with nothing to lose lets that form ask, rather than
 * closing first). Needs a LeaveGuardHost above it.
 */
export function useLeaveGuard(shouldBlock: BlockerFunction): {
  held: Blocker | null;
  othersWouldBlock: (args: Parameters<BlockerFunction>[0]) => boolean;
  /** Navigations held and refused so far (see useLeaveRefusals). */
  refusals: number;
} {
  const host = useContext(LeaveGuardContext);
  const [held, setHeld] = useState<Blocker | null>(null);
  const latest = useRef(shouldBlock);
  latest.current = shouldBlock;
  const self = useRef<GuardedForm | null>(null);
  const register = host?.register;
  useEffect(() => {
    if (!register) return undefined;
    const form: GuardedForm = { shouldBlock: (args) => latest.current(args), onBlocked: setHeld };
    self.current = form;
    return register(form);
  }, [register]);
  const others = host?.othersWouldBlock;
  const othersWouldBlock = useCallback((args: Parameters<BlockerFunction>[0]) => others?.(args, self.current) ?? false, [others]);
  return { held, othersWouldBlock, refusals: host?.refusals ?? 0 };
}
