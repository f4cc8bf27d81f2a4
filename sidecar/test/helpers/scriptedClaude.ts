// One test file's scripted Claude: the fake Messages API and a temp Claude home, started before its tests and
// stopped and removed after them (the setup every real-SDK test file shares).
import { afterAll, beforeAll } from 'vitest';
import { type ClaudeHome, type FakeApi, makeClaudeHome, startFakeApi } from './fakeApi.js';

export interface ScriptedClaude {
  readonly api: FakeApi;
  readonly home: ClaudeHome;
}

/** Registers the file's setup and teardown; read `api` and `home` inside tests, once beforeAll has run. */
export function useScriptedClaude(homePrefix?: string): ScriptedClaude {
  let api: FakeApi | undefined;
  let home: ClaudeHome | undefined;
  beforeAll(async () => {
    api = await startFakeApi();
    home = homePrefix === undefined ? makeClaudeHome() : makeClaudeHome(homePrefix);
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    home?.remove();
  });
  return {
    get api() {
      if (api === undefined) throw new Error('the scripted API starts in beforeAll');
      return api;
    },
    get home() {
      if (home === undefined) throw new Error('the Claude home is made in beforeAll');
      return home;
    },
  };
}
