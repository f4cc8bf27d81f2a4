// A modal dialog: focus moves in, Escape closes it, the page behind stays put.
import { type ReactNode, useEffect, useRef } from 'react';

export function Modal({
  title,
  onClose,
  children,
  labelledBy = 'modal-title',
  className,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  labelledBy?: string;
  /** A class beside `modal`, for a dialog laid out its own way. */
  className?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    const first = ref.current?.querySelector<HTMLElement>('[autofocus], button, input, select, textarea');
    first?.focus();
    return () => previous?.focus();
  }, []);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a press outside the dialog closes it; the keyboard has Escape.
    <div
      className="modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={ref}
        className={className !== undefined ? `modal ${className}` : 'modal'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelledBy}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <h2 id={labelledBy}>{title}</h2>
        {children}
      </div>
    </div>
  );
}
