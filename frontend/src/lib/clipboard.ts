// Copying text for the person: the Clipboard API where the page may use it (a secure context: loopback in the
// browser, the window's own scheme), else a hidden textarea and the older copy command.
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard !== undefined && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // refused (no permission, no focus): try the older way
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}

/** Shows "Copied" (or why not) on a button for a moment. */
export function flashCopied(button: HTMLElement, ok: boolean): void {
  const label = button.dataset['label'] ?? button.textContent ?? 'Copy';
  button.dataset['label'] = label;
  button.textContent = ok ? 'Copied' : 'Copy failed';
  button.classList.toggle('copied', ok);
  setTimeout(() => {
    button.textContent = label;
    button.classList.remove('copied');
  }, 1500);
}
