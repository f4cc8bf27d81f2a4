/** The unreachable end of an exhaustive switch: a case added to the union and not handled fails the typecheck. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
