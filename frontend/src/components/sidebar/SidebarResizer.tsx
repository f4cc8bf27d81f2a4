// The sidebar's right edge: drag it (or focus it and press the arrow keys) to change the width; a double click
// puts the default back.
import { useRef } from 'react';
import { clampWidth, MAX_WIDTH, MIN_WIDTH, setSidebarPrefs } from './prefs';

const DEFAULT_WIDTH = 280;
const KEY_STEP = 16;

export function SidebarResizer({ width }: { width: number }) {
  const drag = useRef<{ x: number; width: number } | undefined>(undefined);
  return (
    <div
      className="sidebar-resizer"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the sidebar"
      aria-valuenow={width}
      aria-valuemin={MIN_WIDTH}
      aria-valuemax={MAX_WIDTH}
      tabIndex={0}
      data-testid="sidebar-resizer"
      onPointerDown={(e) => {
        drag.current = { x: e.clientX, width };
        e.currentTarget.setPointerCapture(e.pointerId);
        e.preventDefault();
      }}
      onPointerMove={(e) => {
        if (drag.current === undefined) return;
        setSidebarPrefs({ width: clampWidth(drag.current.width + e.clientX - drag.current.x) });
      }}
      onPointerUp={(e) => {
        drag.current = undefined;
        e.currentTarget.releasePointerCapture(e.pointerId);
      }}
      onDoubleClick={() => setSidebarPrefs({ width: DEFAULT_WIDTH })}
      onKeyDown={(e) => {
        if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
          e.preventDefault();
          setSidebarPrefs({ width: clampWidth(width + (e.key === 'ArrowLeft' ? -KEY_STEP : KEY_STEP)) });
        }
      }}
    />
  );
}
