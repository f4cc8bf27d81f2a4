/** Ends every switch over a union: a new variant fails type-checking here instead of being ignored at run time. */
export function assertNever(value: never): never {
  throw new Error(`unhandled variant: ${JSON.stringify(value)}`);
}
