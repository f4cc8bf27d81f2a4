// How a card shows the rows nested inside it (a subagent's work): Row provides its own renderer here, so the tool
// cards need not import Row, which imports them.
import { type ComponentType, createContext, useContext } from 'react';
import type { ItemKey } from '../../store/types';

export type NestedRowsComponent = ComponentType<{ keys: readonly ItemKey[] }>;

export const NestedRowsContext = createContext<NestedRowsComponent | undefined>(undefined);

export function useNestedRows(): NestedRowsComponent {
  const rows = useContext(NestedRowsContext);
  if (rows === undefined) throw new Error('a card with nested rows is rendered outside a conversation Row');
  return rows;
}
