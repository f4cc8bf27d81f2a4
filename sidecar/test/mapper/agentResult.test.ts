import { describe, expect, it } from 'vitest';
import { visibleAgentOutput } from '../../src/mapper/agentResult.js';

// The texts are Claude Code 2.1.332's own (its Agent tool's result mapping).
describe('visibleAgentOutput', () => {
  it('keeps a launch to its first sentence, without the notes for the model', () => {
    const launch =
      'Async agent launched successfully. (This tool result is internal metadata — never quote or paste any part of it, including the agentId below, into a user-facing reply.)\n' +
      "agentId: a15cfbee29bf88d8a (internal ID - do not mention to user. Use SendMessage with to: 'a15cfbee29bf88d8a', summary: '<5-10 word recap>' to continue this agent.)\n" +
      'The agent is working in the background. You will be notified automatically when it completes.\noutput_file: /tmp/x.output';
    expect(visibleAgentOutput(launch)).toBe('Async agent launched successfully.');
  });

  it("ends a finished agent's answer before its id and usage", () => {
    const done =
      "Found three files.\nagentId: a1 (use SendMessage with to: 'a1', summary: '<recap>' to continue this agent)\n<usage>subagent_tokens: 12\ntool_uses: 1\nduration_ms: 40</usage>";
    expect(visibleAgentOutput(done)).toBe('Found three files.');
  });

  it('leaves other text as it is', () => {
    expect(visibleAgentOutput('An answer that names agentId: in the middle of a line')).toBe('An answer that names agentId: in the middle of a line');
  });
});
