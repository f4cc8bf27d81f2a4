import { describe, expect, it } from 'vitest';
import { Mapper } from '../../src/mapper/mapper.js';
import { fixedClock } from '../helpers/clock.js';

const SESSION = '5e551011-0000-4000-8000-000000000001';
const USAGE = 'Estimated cost:        $0.0000\nTotal duration (API):  0s';

function stub(text: string): Record<string, unknown> {
  return {
    type: 'assistant',
    uuid: 'a-1',
    session_id: SESSION,
    parent_tool_use_id: null,
    message: { id: 'm-1', type: 'message', role: 'assistant', model: '<synthetic>', content: [{ type: 'text', text }], stop_reason: 'end_turn' },
  };
}

describe('a slash command run live', () => {
  it('shows its stub reply as the command’s output, as history does', () => {
    const m = new Mapper(SESSION, fixedClock());
    m.notePromptText('/usage');
    expect(m.map(stub(USAGE), { turn: 't1' })).toMatchObject([{ kind: 'command.output', stream: 'stdout', text: USAGE }]);
  });

  it('leaves a one-line stub reply a message: it has no layout to keep', () => {
    const m = new Mapper(SESSION, fixedClock());
    m.notePromptText('/goal the greeting was answered');
    expect(m.map(stub('Goal set: the greeting was answered'), { turn: 't1' })).toMatchObject([{ kind: 'message.completed', role: 'assistant' }]);
  });

  it('leaves a reply to an ordinary prompt a message', () => {
    const m = new Mapper(SESSION, fixedClock());
    m.notePromptText('what is /usage for?');
    expect(m.map(stub('It shows usage.\nSee the docs.'), { turn: 't1' })).toMatchObject([
      { kind: 'message.completed', role: 'assistant', text: 'It shows usage.\nSee the docs.' },
    ]);
  });
});
