// The Go host and the sidecar must speak the same wire version.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../src/protocol/version.js';
import { REPO_ROOT } from '../helpers/fakeApi.js';

describe('protocol version', () => {
  it('matches ProtocolVersion in app/protocol/version.go', () => {
    const source = readFileSync(join(REPO_ROOT, 'app/protocol/version.go'), 'utf8');
    const match = /\bProtocolVersion\s*=\s*(\d+)\b/.exec(source);
    expect(match, 'version.go declares ProtocolVersion = N').not.toBeNull();
    expect(PROTOCOL_VERSION).toBe(Number(match![1]));
  });
});
