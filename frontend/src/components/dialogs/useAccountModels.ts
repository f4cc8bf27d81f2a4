// The models the signed-in account offers, for a session not yet open (the host caches them per account).
import { useEffect, useState } from 'react';
import { toApiError } from '../../protocol/api';
import type { ModelEntry } from '../../protocol/events';
import type { ConsoleStore } from '../../store/store';

export interface AccountModels {
  models: ModelEntry[];
  /** Shown under the picker while loading, or why the list could not be had. */
  note: string | undefined;
}

export function useAccountModels(store: ConsoleStore): AccountModels {
  const [models, setModels] = useState<ModelEntry[]>([]);
  const [note, setNote] = useState<string | undefined>('Loading the models your account offers…');
  useEffect(() => {
    let live = true;
    store.lookups
      .listModels()
      .then((list) => {
        if (!live) return;
        setModels(list);
        setNote(undefined);
      })
      .catch((err: unknown) => live && setNote(toApiError(err).message));
    return () => {
      live = false;
    };
  }, [store]);
  return { models, note };
}
