// Terminal output as the terminal would colour it (lib/ansi.ts): plain text nodes and styled spans, never HTML.
import { memo } from 'react';
import { ansiPieces, hasControls } from '../../lib/ansi';

export const AnsiText = memo(function AnsiText({ text }: { text: string }) {
  if (!hasControls(text)) return <>{text}</>;
  return (
    <>
      {ansiPieces(text).map((piece, i) =>
        piece.style !== undefined ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces are the text's, in order; they have no other identity.
          <span key={i} className="ansi" style={piece.style}>
            {piece.text}
          </span>
        ) : (
          piece.text
        ),
      )}
    </>
  );
});
