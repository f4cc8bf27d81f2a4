// The shape of a kind's metadata (PROTOCOL.md, "Adding a kind"): what each kind is, an example line, what bounds.ts
// does with an event too large for one line, and how `baton exec` and `baton history` print it. Each area's file
// (kinds/*.ts) gives every kind of its own an entry beside its schema; kindMeta.ts gathers them.

type StringField<E> = { [F in keyof E]-?: NonNullable<E[F]> extends string ? F : never }[keyof E];

/**
 * What fitEvent (bounds.ts) does with an event whose line would pass the 8 MiB bound: `short` — never shrunk (the
 * reason says why it cannot grow that large); otherwise, in this order, `drop` fields, replace `stub` fields by
 * `{truncated: true}`, `empty` lists, cut `truncate` strings to 256k characters with a mark, and strip the data
 * of `images` (type and size stay).
 */
export type SizeRule<E> = { short: string } | { truncate: StringField<E>[]; drop?: (keyof E)[]; stub?: (keyof E)[]; empty?: (keyof E)[]; images?: true };

/**
 * One terminal line. `text` is printed with a newline after it; `{path|filter|…}` inserts a field (`path`: a field,
 * or `field.sub` of a nested object; in an `each` line, a field of the list's item). Filters: `line=N` — one line of
 * at most N characters; `tail=N` — the text's first N lines, each indented, on lines of their own; `words` —
 * underscores read as spaces; `say` — the kind's `words` table for that field (`*`: any other value); `quote` —
 * every line after "> "; `lead=X` — X before the value, and nothing at all when the value is empty. `when`: the
 * line is printed only if every ` && `-joined test holds — `field` (non-empty, true, present), `!field`,
 * `field == value`, `field != value`. `each`: one line per item of that list field. `history`: only in
 * `baton history` (a live `baton exec` shows its own prompt already).
 */
export interface TerminalLine {
  text: string;
  when?: string;
  each?: string;
  history?: true;
}

/** How the terminal prints a kind: `lines` (each whose test holds), `quiet` (nothing: why), `byHand` (app/cli/transcript.go: why). */
export type Terminal = { quiet: string } | { byHand: string } | { lines: TerminalLine[]; words?: Record<string, Record<string, string>>; byHand?: string };

/** The metadata of a kind whose events are `E`. */
export interface KindMeta<E> {
  /** One sentence for PROTOCOL.md's kinds table. */
  description: string;
  /** A valid event of the kind: the first line of its kind in the fixtures (valid.ndjson; host.ndjson for host kinds). */
  example: E;
  size: SizeRule<E>;
  terminal: Terminal;
}

/** A kind the host makes: it never crosses the sidecar line, so it is never shrunk. */
export type HostKindMeta<E> = Omit<KindMeta<E>, 'size'> & { size: { short: string } };

/** One entry per kind of an area's events `E`. */
export type MetaTable<E extends { kind: string }> = { [K in E['kind']]: KindMeta<Extract<E, { kind: K }>> };

/** The session id of every example line. */
export const S = '0b9f3a4e-5c1d-4e2f-9a7b-1c2d3e4f5a6b';
export const notOnTheSidecarLine = { short: 'made by the host, it never crosses the sidecar line' };
export const small = (why: string) => ({ short: why });
