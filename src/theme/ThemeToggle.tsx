import { Moon, Sun } from 'lucide-react';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { setTheme } from './theme-store.ts';
import { useTheme } from './use-theme.ts';

export function ThemeToggle() {
  const format = useFormat();
  const theme = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  const label = format(next === 'dark' ? 'theme.toDark' : 'theme.toLight');
  return (
    <button type="button" className="icon-button" aria-label={label} title={label} onClick={() => setTheme(next)}>
      {theme === 'dark' ? <Sun aria-hidden="true" size={18} /> : <Moon aria-hidden="true" size={18} />}
    </button>
  );
}
