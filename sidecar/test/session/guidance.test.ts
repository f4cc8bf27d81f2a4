// Which results of a steered turn are the interrupted response's (bookkeeping) and which end the turn.
import { describe, expect, it } from 'vitest';
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { Guidance } from '../../src/session/guidance.js';

const result = (subtype: string) => ({ type: 'result', subtype }) as unknown as SDKMessage;
const init = { type: 'system', subtype: 'init' } as unknown as SDKMessage;
const echo = (uuid: string) => ({ type: 'user', uuid, message: { role: 'user', content: 'go short' } }) as unknown as SDKMessage;

describe('Guidance', () => {
  it('takes a result held while the interrupt was under way as the interrupted one', () => {
    const g = new Guidance();
    g.begin('t');
    expect(g.absorb('t', result('success'))).toBe(true);
    g.succeeded('t', 'g1');
    expect(g.absorb('t', init)).toBe(false);
    expect(g.absorb('t', result('success'))).toBe(false); // the guidance's answer ends the turn
  });

  it('takes the first result before the next query as the interrupted one, whatever its subtype', () => {
    // A response that ended as the interrupt came: acknowledged first, its result (success) after.
    const g = new Guidance();
    g.begin('t');
    g.succeeded('t', 'g1');
    expect(g.absorb('t', result('success'))).toBe(true);
    expect(g.absorb('t', init)).toBe(false);
    expect(g.absorb('t', result('success'))).toBe(false);
  });

  it('lets the guidance query end the turn when the interrupted response sent no result', () => {
    for (const begins of [init, echo('g1')]) {
      const g = new Guidance();
      g.begin('t');
      g.succeeded('t', 'g1');
      expect(g.absorb('t', begins)).toBe(false);
      expect(g.absorb('t', result('success'))).toBe(false);
    }
  });

  it('still absorbs a late error_during_execution after the next query began', () => {
    const g = new Guidance();
    g.begin('t');
    g.succeeded('t', 'g1');
    g.absorb('t', init);
    expect(g.absorb('t', result('error_during_execution'))).toBe(true);
    expect(g.absorb('t', result('success'))).toBe(false);
  });
});
