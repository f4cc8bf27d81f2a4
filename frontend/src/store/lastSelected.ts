// The session shown last, remembered per browser profile (localStorage), so a reload opens it again.
const KEY = 'baton.selectedSession';

export function rememberSelected(id: string | undefined): void {
  try {
    if (id === undefined) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, id);
  } catch {
    // private mode or storage full: a reload then shows the welcome, nothing else is lost
  }
}

export function lastSelected(): string | undefined {
  try {
    return localStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}
