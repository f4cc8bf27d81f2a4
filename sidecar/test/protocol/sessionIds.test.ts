// The sidecar's session id rule is the host's: the same shared cases pass and fail on both sides
// (app/protocol/sessionid_test.go reads the same file).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyPayload } from '../../src/protocol/schemas.js';
import { SIDECAR_ROOT } from '../helpers/fakeApi.js';

const cases = JSON.parse(readFileSync(join(SIDECAR_ROOT, 'testdata/protocol/session-ids.json'), 'utf8')) as {
  valid: string[];
  invalid: string[];
};

describe('session ids', () => {
  it('has cases on both sides', () => {
    expect(cases.valid.length).toBeGreaterThan(0);
    expect(cases.invalid.length).toBeGreaterThan(0);
  });
  it.each(cases.valid)('accepts %j', (id) => {
    expect(historyPayload.safeParse({ session: id }).success).toBe(true);
  });
  it.each(cases.invalid)('refuses %j', (id) => {
    expect(historyPayload.safeParse({ session: id }).success).toBe(false);
  });
});
