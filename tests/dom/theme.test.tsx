/** The theme toggle: system preference by default, the user's choice kept in local storage. */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { currentTheme, startTheme } from '../../src/theme/theme-store.ts';
import { ThemeToggle } from '../../src/theme/ThemeToggle.tsx';

let systemDark = false;
const mediaListeners = new Set<() => void>();

beforeEach(() => {
  localStorage.clear();
  systemDark = false;
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({
      media: query,
      get matches() {
        return query.includes('dark') && systemDark;
      },
      addEventListener: (_type: string, listener: () => void) => mediaListeners.add(listener),
      removeEventListener: (_type: string, listener: () => void) => mediaListeners.delete(listener),
    }),
  });
});
afterEach(cleanup);

describe('theme', () => {
  it('follows the system preference until the user chooses', () => {
    systemDark = true;
    startTheme();
    expect(document.documentElement.dataset.theme).toBe('dark');
    systemDark = false;
    act(() => mediaListeners.forEach((listener) => listener()));
    expect(document.documentElement.dataset.theme).toBe('light');
  });

  it('toggles, says what it will do, and keeps the choice over the system’s', async () => {
    const user = userEvent.setup();
    startTheme();
    render(<ThemeToggle />);
    await user.click(screen.getByRole('button', { name: 'Switch to dark theme' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem('larder.theme')).toBe('dark');
    expect(screen.getByRole('button', { name: 'Switch to light theme' })).toBeInTheDocument();
    // The system turning light does not override an explicit choice.
    systemDark = false;
    act(() => mediaListeners.forEach((listener) => listener()));
    expect(currentTheme()).toBe('dark');
  });
});
