// What of an Agent (Task) call's result a person sees. Claude Code appends notes meant for the model alone: a
// launch is "internal metadata — never quote…" with the agent's id, output file and instructions; a finished
// agent's answer ends with its id and a <usage> block. The transcript shows the launch's first sentence and the
// answer itself (issue 28); the model still gets the whole result from Claude Code.

/** The launch notes' first sentence, before the "(This tool result is internal metadata …" note. */
const launchRE = /^([^\n]*?)\s*\(This tool result is internal metadata\b/;
/** The id and usage lines a finished agent's answer ends with. */
const trailerRE = /(?:^|\n+)agentId: [^\n]*(?:\n<usage>[\s\S]*?<\/usage>)?\s*$/;

export function visibleAgentOutput(output: string): string {
  const launch = launchRE.exec(output);
  if (launch !== null) return launch[1] ?? '';
  return output.replace(trailerRE, '');
}
