// The theme on the document's root (app.css reads data-theme): the one Settings chose, or with "system" the OS's,
// followed as it changes. Resolving "system" here keeps app.css to one dark palette.
import { useEffect } from 'react';
import { useConsole } from '../../store/hooks';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function osTheme(): 'light' | 'dark' {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

/** Puts the OS's theme on the root before the first paint (Settings arrive later and may change it). */
export function applyOsTheme(): void {
  document.documentElement.dataset['theme'] = osTheme();
}

export function useTheme(): void {
  const theme = useConsole((s) => s.settings?.theme);
  useEffect(() => {
    const root = document.documentElement;
    if (theme !== undefined && theme !== 'system') {
      root.dataset['theme'] = theme;
      return;
    }
    root.dataset['theme'] = osTheme();
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(DARK_QUERY);
    const follow = () => {
      root.dataset['theme'] = osTheme();
    };
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, [theme]);
}
