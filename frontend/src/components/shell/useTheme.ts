// The theme Settings chose, on the document's root (app.css reads data-theme); "system" leaves it to the OS.
import { useEffect } from 'react';
import { useConsole } from '../../store/hooks';

export function useTheme(): void {
  const theme = useConsole((s) => s.settings?.theme);
  useEffect(() => {
    const root = document.documentElement;
    if (theme === undefined || theme === 'system') delete root.dataset['theme'];
    else root.dataset['theme'] = theme;
  }, [theme]);
}
