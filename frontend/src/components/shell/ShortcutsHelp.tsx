// The keyboard shortcuts, listed (F1 or ?).
import { Modal } from '../dialogs/Modal';

export const SHORTCUTS: Array<[string, string]> = [
  ['Enter', 'Send the prompt (queued while Claude works)'],
  ['Shift+Enter', 'New line in the prompt'],
  ['Esc', 'Cancel the running turn'],
  ['Tab', 'From the prompt: to the permission or question waiting (then 1/2/3, digits, arrows)'],
  ['Shift+Tab', 'Cycle the permission mode (ask, accept edits, plan)'],
  ['Alt+N', 'New session'],
  ['Ctrl+K', 'Filter sessions (titles and everything they said)'],
  ['Ctrl+F', 'Find in the whole session (Enter: older match, Shift+Enter: newer)'],
  ['Ctrl+B', 'Hide / show the sidebar'],
  ['Alt+↑ / Alt+↓', 'Previous / next session'],
  ['Ctrl+L', 'Focus the prompt'],
  ['F1 or ?', 'This list'],
];

export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Keyboard shortcuts" onClose={onClose}>
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map(([keys, what]) => (
            <tr key={keys}>
              <td>
                <kbd>{keys}</kbd>
              </td>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="dialog-buttons">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}
