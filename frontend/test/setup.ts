import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { resetSidebarPrefs } from '../src/components/sidebar/prefs';

afterEach(() => {
  cleanup();
  // What a console remembers between loads (the selected session, the sidebar's layout) must not leak into the
  // next test.
  localStorage.clear();
  resetSidebarPrefs();
});
