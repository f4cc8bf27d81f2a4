// Tells the person about a background session that needs them (a permission) or has finished, through the
// browser's Notification API. Where the host offers native notifications (capabilities.notifications) the
// store asks the host instead (the `notify` call), so nothing is said twice.

export interface Notifier {
  /** onClick runs when the person clicks the notification (after the window is focused). */
  notify(title: string, body: string, tag: string, onClick?: () => void): void;
  /** Asks for permission; browsers allow it only from a click or key press. */
  requestPermission(): void;
}

export class BrowserNotifier implements Notifier {
  notify(title: string, body: string, tag: string, onClick?: () => void): void {
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    try {
      const n = new Notification(title, { body, tag });
      n.onclick = () => {
        window.focus();
        onClick?.();
        n.close();
      };
    } catch {
      // Some embedded browsers expose the constructor but refuse it; nothing else to do.
    }
  }

  requestPermission(): void {
    if (typeof Notification === 'undefined' || Notification.permission !== 'default') return;
    void Notification.requestPermission().catch(() => undefined);
  }
}

export const silentNotifier: Notifier = { notify: () => undefined, requestPermission: () => undefined };
