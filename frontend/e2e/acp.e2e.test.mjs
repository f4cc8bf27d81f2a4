// ACP conformance: the official client library (@agentclientprotocol/sdk, which validates every message it reads
// against the protocol's schema) drives `baton acp` with the real runtime, sidecar and claude CLI against the
// scripted Messages API. One connection walks the protocol: initialize, new, a streamed prompt, a tool call and its
// permission, questions of one and of several choices, two prompts at once (queued), cancel mid-stream, mode and
// model switches, list, close, load (the stored conversation replayed), resume; then the bad inputs, raw, on a
// connection of their own.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { createInterface } from 'node:readline';
import { after, before, test } from 'node:test';
import * as acp from '@agentclientprotocol/sdk';
import { batonBinary, batonEnv, onStop, startFakeApi, stopAll, stopOnSignals, tempDir } from './harness.mjs';

stopOnSignals();

let env;
let bin;
let project;
let mcpScript;

/**
 * A stand-in MCP server (stdio, one JSON-RPC message per line) with one tool, echo: the client's MCP server that
 * session/new hands Baton. Claude Code starts it and calls it.
 */
const MCP_SERVER = `
const rl = require('node:readline').createInterface({ input: process.stdin });
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
rl.on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize') {
    send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'acptest', version: '1.0.0' } } });
  } else if (m.method === 'tools/list') {
    send({ id: m.id, result: { tools: [{ name: 'echo', description: 'Echoes its text', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }] } });
  } else if (m.method === 'tools/call') {
    send({ id: m.id, result: { content: [{ type: 'text', text: 'echoed: ' + m.params.arguments.text }] } });
  } else {
    send({ id: m.id, error: { code: -32601, message: 'no such method' } });
  }
});
`;

/** `baton acp` as an editor starts it; stdin closed ends it, the harness stops it by PID otherwise. */
function startAgent() {
  const child = spawn(bin, ['acp'], { cwd: project, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const exited = new Promise((res) => child.once('exit', (code) => res(code)));
  onStop(async () => {
    if (child.exitCode !== null) return;
    child.stdin.end();
    const code = await Promise.race([exited, new Promise((res) => setTimeout(() => res('timeout'), 20_000))]);
    if (code === 'timeout' && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  });
  return { child, exited, stderr: () => stderr };
}

before(async () => {
  bin = batonBinary();
  const tools = tempDir('acp-tools');
  const apiUrl = await startFakeApi(join(tools, 'baton-fakeapi'));
  const home = tempDir('acp-home');
  env = batonEnv({ apiUrl, home });
  project = tempDir('acp-project');
  mcpScript = join(tempDir('acp-mcp'), 'server.cjs');
  writeFileSync(mcpScript, MCP_SERVER);
});

after(stopAll);

// One connection for the protocol walk: the steps share it and stop at the first failure.
let agent;
let session;
let sessionId;
/** @typedef {import('@agentclientprotocol/sdk').RequestPermissionRequest} PermissionRequest */
/** @typedef {import('@agentclientprotocol/sdk').RequestPermissionResponse} PermissionResponse */
/** @type {PermissionRequest[]} */
const permissions = [];
/** @type {(params: PermissionRequest) => Promise<PermissionResponse>} */
const allowOnce = async () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } });
/** How the client answers a permission request (a step may replace it). */
let answerPermission = allowOnce;
/** @type {any[]} */
const updates = [];
let broken = false;

/** A JSON-RPC error's code (the client library rejects with the error object the agent sent). */
function rpcCode(err) {
  return /** @type {{ code?: number }} */ (err).code;
}

function step(name, fn) {
  test(name, { timeout: 120_000 }, async (t) => {
    if (broken) {
      t.skip('an earlier step failed');
      return;
    }
    try {
      await fn();
    } catch (err) {
      broken = true;
      throw err;
    }
  });
}

/** Reads a prompt's updates until its stop (n stops for n prompts at once). */
async function untilStops(s, n = 1) {
  const got = [];
  const stops = [];
  while (stops.length < n) {
    const m = await s.nextUpdate();
    if (m.kind === 'stop') stops.push(m.stopReason);
    else got.push(m.update);
  }
  return { got, stops };
}

const texts = (got, kind) =>
  got
    .filter((u) => u.sessionUpdate === kind && u.content.type === 'text')
    .map((u) => u.content.text)
    .join('');

step('a request before initialize is refused as an invalid request', async () => {
  const a = startAgent();
  const app = acp
    .client({ name: 'baton-conformance' })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      permissions.push(params);
      return answerPermission(params);
    })
    .onNotification(acp.methods.client.session.update, async ({ params: n }) => {
      updates.push(n);
    });
  const conn = app.connect(acp.ndJsonStream(Writable.toWeb(a.child.stdin), /** @type {ReadableStream<Uint8Array>} */ (Readable.toWeb(a.child.stdout))));
  onStop(() => conn.close());
  agent = conn.agent;
  await assert.rejects(agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] }), (err) => rpcCode(err) === -32600);
});

step('initialize: protocol 1, Baton, its capabilities and Claude Code login', async () => {
  const res = await agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { auth: { terminal: true } },
    clientInfo: { name: 'baton-conformance', version: '1.0.0' },
  });
  assert.equal(res.protocolVersion, 1);
  assert.equal(res.agentInfo.name, 'baton');
  assert.equal(res.agentCapabilities.loadSession, true);
  assert.equal(res.agentCapabilities.promptCapabilities.embeddedContext, true);
  assert.equal(res.agentCapabilities.promptCapabilities.image, true);
  assert.deepEqual(res.agentCapabilities.sessionCapabilities, { list: {}, resume: {}, close: {} });
  assert.deepEqual(res.agentCapabilities.mcpCapabilities, { http: true, sse: true });
  assert.deepEqual(
    res.authMethods.map((m) => [m.id, m.type, m.args]),
    [['claude-login', 'terminal', ['--login']]],
  );
});

step('authenticate succeeds while Claude Code is signed in (here by the API key in its environment)', async () => {
  // Clients such as CodeCompanion authenticate after every initialize and give up on an error.
  assert.deepEqual(await agent.request('authenticate', { methodId: 'claude-login' }), {});
});

step('session/new: a session in the project with its modes, the model option and the client MCP server', async () => {
  session = await agent
    .buildSession(project)
    .withMcpServer({ name: 'acptest', command: process.execPath, args: [mcpScript], env: [] })
    .start();
  sessionId = session.sessionId;
  assert.match(sessionId, /^[0-9a-f-]{36}$/);
  assert.equal(session.modes.currentModeId, 'default');
  assert.ok(session.modes.availableModes.some((m) => m.id === 'plan'));
  const model = session.newSessionResponse.configOptions.find((o) => o.id === 'model');
  assert.equal(model.currentValue, 'default');
});

step('session/prompt streams thought and message chunks and ends the turn', async () => {
  const done = session.prompt('[think] hello there');
  const { got, stops } = await untilStops(session);
  assert.deepEqual(stops, ['end_turn']);
  assert.equal((await done).stopReason, 'end_turn');
  assert.equal(texts(got, 'agent_thought_chunk'), 'Let me think about this.');
  assert.equal(texts(got, 'agent_message_chunk'), 'You said: [think] hello there');
});

// A 1×1 PNG.
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

step('a prompt carries its images and embedded context to Claude', async () => {
  session.prompt([
    { type: 'text', text: '[count-images] ' },
    { type: 'image', mimeType: 'image/png', data: PIXEL },
    { type: 'image', mimeType: 'image/png', data: PIXEL },
    { type: 'resource', resource: { uri: `file://${project}/ctx.txt`, text: 'context text' } },
  ]);
  const { got, stops } = await untilStops(session);
  assert.deepEqual(stops, ['end_turn']);
  assert.equal(texts(got, 'agent_message_chunk'), 'Images: 2');
});

step('a tool call asks permission, shows its diff and completes', async () => {
  const before = permissions.length;
  session.prompt('[write notes.txt hello acp]');
  const { got, stops } = await untilStops(session);
  assert.deepEqual(stops, ['end_turn']);
  const asked = permissions.slice(before);
  assert.equal(asked.length, 1, 'one permission request');
  assert.deepEqual(
    asked[0].options.map((o) => o.kind),
    ['allow_once', 'allow_always', 'reject_once', 'reject_always'],
  );
  const call = got.find((u) => u.sessionUpdate === 'tool_call');
  assert.equal(call.kind, 'edit');
  assert.match(call.title, /notes\.txt/);
  assert.ok(['pending', 'in_progress'].includes(call.status), call.status);
  assert.equal(call.locations[0].path, join(project, 'notes.txt'));
  const diff = call.content[0];
  assert.deepEqual([diff.type, diff.path, diff.newText], ['diff', join(project, 'notes.txt'), 'hello acp\n']);
  assert.ok(call.rawInput, 'raw input');
  const end = got.find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === call.toolCallId && u.status === 'completed');
  assert.ok(end, 'the tool call completes');
  assert.equal(readFileSync(join(project, 'notes.txt'), 'utf8'), 'hello acp\n');
});

step('a tool call rejected once is not run and its call fails', async () => {
  answerPermission = async () => ({ outcome: { outcome: 'selected', optionId: 'reject_once' } });
  try {
    session.prompt('[write rejected.txt never]');
    const { got, stops } = await untilStops(session);
    assert.deepEqual(stops, ['end_turn']);
    const call = got.find((u) => u.sessionUpdate === 'tool_call');
    assert.ok(call, 'a tool call');
    const end = got.find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === call.toolCallId && u.status === 'failed');
    assert.ok(end, `the rejected call fails: ${JSON.stringify(got.filter((u) => u.sessionUpdate.startsWith('tool')))}`);
    assert.equal(existsSync(join(project, 'rejected.txt')), false);
  } finally {
    answerPermission = allowOnce;
  }
});

step('a tool rejected always is not asked again in the session, and its later calls fail', async () => {
  const before = permissions.length;
  answerPermission = async () => ({ outcome: { outcome: 'selected', optionId: 'reject_always' } });
  try {
    for (const file of ['never-1.txt', 'never-2.txt']) {
      session.prompt(`[bash echo no > ${file}]`);
      const { got, stops } = await untilStops(session);
      assert.deepEqual(stops, ['end_turn']);
      const failed = got.find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'failed');
      assert.match(JSON.stringify(failed?.content ?? []), /does not want it used again/, `${file}: the call fails, saying why`);
      assert.equal(existsSync(join(project, file)), false, `${file} was written`);
    }
    assert.equal(permissions.length - before, 1, 'asked once');
  } finally {
    answerPermission = allowOnce;
  }
});

step("a tool of the client's MCP server runs in the session", async () => {
  session.prompt('[tool mcp__acptest__echo {"text":"from acp"}]');
  const { got, stops } = await untilStops(session);
  assert.deepEqual(stops, ['end_turn']);
  const call = got.find((u) => u.sessionUpdate === 'tool_call');
  assert.ok(call, 'a tool call');
  const end = got.find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === call.toolCallId && u.status === 'completed');
  assert.ok(end, `the MCP tool call completes: ${JSON.stringify(got.filter((u) => u.sessionUpdate.startsWith('tool')))}`);
  assert.match(JSON.stringify(end.rawOutput), /echoed: from acp/);
  assert.match(texts(got, 'agent_message_chunk'), /Tool results: \[ok\] echoed: from acp/);
});

step("Claude's checklist becomes the client's plan", async () => {
  const task = { subject: 'Write the fix', description: 'Fix it', activeForm: 'Writing the fix' };
  session.prompt(`[tool TaskCreate ${JSON.stringify(task)}]`);
  const { got, stops } = await untilStops(session);
  assert.deepEqual(stops, ['end_turn']);
  const plan = got.filter((u) => u.sessionUpdate === 'plan').at(-1);
  assert.ok(plan, JSON.stringify(got.filter((u) => u.sessionUpdate.startsWith('tool'))));
  assert.deepEqual(
    plan.entries.map((e) => [e.content, e.status]),
    [['Write the fix', 'pending']],
  );
});

/**
 * A prompt that makes Claude ask one question (AskUserQuestion) with the given [label, description] options.
 * @param {string} question
 * @param {boolean} multiSelect
 * @param {[string, string][]} options
 */
const askQuestion = (question, multiSelect, options) => {
  const input = { questions: [{ question, header: 'Colour', multiSelect, options: options.map(([label, description]) => ({ label, description })) }] };
  return `[tool AskUserQuestion ${JSON.stringify(input)}]`;
};

step("Claude's question is offered as a permission request whose options are its answers", async () => {
  /** @type {PermissionRequest | undefined} */
  let offered;
  answerPermission = async (params) => {
    offered = params;
    return { outcome: { outcome: 'selected', optionId: params.options.find((o) => o.name === 'Blue')?.optionId ?? 'missing' } };
  };
  try {
    session.prompt(
      askQuestion('Which colour?', false, [
        ['Red', 'warm'],
        ['Blue', 'cool'],
      ]),
    );
    const { got, stops } = await untilStops(session);
    assert.deepEqual(stops, ['end_turn']);
    assert.ok(offered);
    assert.equal(offered.toolCall.title, 'Which colour?');
    assert.deepEqual(
      offered.options.map((o) => o.name),
      ['Red', 'Blue', 'Decline to answer'],
    );
    assert.match(texts(got, 'agent_message_chunk'), /Blue/);
  } finally {
    answerPermission = allowOnce;
  }
});

step("Claude's question of several choices is offered answer by answer, and the answers taken reach Claude", async () => {
  /** @type {PermissionRequest[]} */
  const offered = [];
  answerPermission = async (params) => {
    offered.push(params);
    const pick = !params.toolCall.title?.includes('Green');
    const option = params.options.find((o) => (pick ? o.kind === 'allow_once' : o.name === 'Leave it out'));
    return { outcome: { outcome: 'selected', optionId: option?.optionId ?? 'missing' } };
  };
  try {
    session.prompt(
      askQuestion('Which colours?', true, [
        ['Red', 'warm'],
        ['Green', 'calm'],
        ['Blue', 'cool'],
      ]),
    );
    const { got, stops } = await untilStops(session);
    assert.deepEqual(stops, ['end_turn']);
    assert.deepEqual(
      offered.map((p) => p.toolCall.title),
      ['Which colours? — Red (1 of 3; choose any)', 'Which colours? — Green (2 of 3; choose any)', 'Which colours? — Blue (3 of 3; choose any)'],
    );
    assert.deepEqual(
      offered[0].options.map((o) => [o.name, o.kind]),
      [
        ['Choose Red', 'allow_once'],
        ['Leave it out', 'reject_once'],
        ['Decline to answer', 'reject_once'],
      ],
    );
    assert.match(texts(got, 'agent_message_chunk'), /"Which colours\?"="Red, Blue"/);
  } finally {
    answerPermission = allowOnce;
  }
});

step('a second prompt while one runs waits behind it; both end', async () => {
  const first = session.prompt('first of two');
  const second = session.prompt('second of two');
  const { got, stops } = await untilStops(session, 2);
  assert.deepEqual(stops, ['end_turn', 'end_turn']);
  assert.deepEqual([(await first).stopReason, (await second).stopReason], ['end_turn', 'end_turn']);
  assert.equal(texts(got, 'agent_message_chunk'), 'You said: first of twoYou said: second of two');
});

step('session/cancel mid-stream ends the prompt as cancelled, not an error', async () => {
  const done = session.prompt('[slow] a long answer');
  for (;;) {
    const m = await session.nextUpdate();
    assert.notEqual(m.kind, 'stop', 'the prompt ended before the cancel');
    if (m.update.sessionUpdate === 'agent_message_chunk') break;
  }
  await agent.notify(acp.methods.agent.session.cancel, { sessionId });
  const { stops } = await untilStops(session);
  assert.deepEqual(stops, ['cancelled']);
  assert.equal((await done).stopReason, 'cancelled');
});

step('a cancel while a permission request is pending: the client answers it cancelled, the prompt ends cancelled', async () => {
  let asked;
  const pending = new Promise((res) => {
    asked = res;
  });
  answerPermission = async () => {
    asked();
    await agent.notify(acp.methods.agent.session.cancel, { sessionId });
    return { outcome: { outcome: 'cancelled' } };
  };
  try {
    const done = session.prompt('[write cancelled.txt never]');
    await pending;
    const { stops } = await untilStops(session);
    assert.deepEqual(stops, ['cancelled']);
    assert.equal((await done).stopReason, 'cancelled');
    assert.equal(existsSync(join(project, 'cancelled.txt')), false);
  } finally {
    answerPermission = allowOnce;
  }
});

step('mode and model switches', async () => {
  await agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'plan' });
  assert.ok(
    updates.some((n) => n.sessionId === sessionId && n.update.sessionUpdate === 'current_mode_update' && n.update.currentModeId === 'plan'),
    'current_mode_update plan',
  );
  await agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'default' });
  const res = await agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: 'model', value: 'sonnet' });
  assert.equal(res.configOptions.find((o) => o.id === 'model').currentValue, 'sonnet');
  await assert.rejects(agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'no-such-mode' }), (err) => rpcCode(err) === -32602);
});

step('the session announced its commands and its context usage', async () => {
  const mine = updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
  const commands = mine.find((u) => u.sessionUpdate === 'available_commands_update');
  assert.ok(commands?.availableCommands.length > 0, 'available_commands_update with commands');
  const usage = mine.filter((u) => u.sessionUpdate === 'usage_update');
  assert.ok(usage.length > 0, 'usage_update');
  assert.ok(usage.every((u) => u.size > 0 && u.used >= 0));
});

step("Claude's plan is offered for approval, and approving it leaves plan mode", async () => {
  await agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'plan' });
  /** @type {PermissionRequest | undefined} */
  let offered;
  answerPermission = async (params) => {
    offered = params;
    return { outcome: { outcome: 'selected', optionId: 'allow_once' } };
  };
  try {
    const from = updates.length;
    session.prompt('[tool ExitPlanMode {"plan":"1. Write the file"}]');
    const { stops } = await untilStops(session);
    assert.deepEqual(stops, ['end_turn']);
    assert.ok(offered);
    assert.equal(offered.toolCall.kind, 'switch_mode');
    assert.deepEqual(
      offered.options.map((o) => o.kind),
      ['allow_always', 'allow_once', 'reject_once'],
    );
    const modes = updates
      .slice(from)
      .filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === 'current_mode_update')
      .map((n) => n.update.currentModeId);
    assert.equal(modes.at(-1), 'default', JSON.stringify(modes));
  } finally {
    answerPermission = allowOnce;
  }
});

step('session/list names the session in its project', async () => {
  const res = await agent.request(acp.methods.agent.session.list, { cwd: project });
  const mine = res.sessions.find((s) => s.sessionId === sessionId);
  assert.ok(mine, `listed: ${JSON.stringify(res.sessions)}`);
  assert.equal(mine.cwd, project);
});

step('session/close, then session/load replays the stored conversation', async () => {
  session.dispose();
  await agent.request(acp.methods.agent.session.close, { sessionId });
  const from = updates.length;
  await agent.request(acp.methods.agent.session.load, { sessionId, cwd: project, mcpServers: [] });
  const replay = updates
    .slice(from)
    .filter((n) => n.sessionId === sessionId)
    .map((n) => n.update);
  const users = replay.filter((u) => u.sessionUpdate === 'user_message_chunk').map((u) => u.content.text);
  assert.equal(users[0], '[think] hello there');
  assert.ok(users.includes('[write notes.txt hello acp]'), JSON.stringify(users));
  const images = replay.filter((u) => u.sessionUpdate === 'user_message_chunk' && u.content.type === 'image');
  assert.deepEqual(
    images.map((u) => [u.content.mimeType, u.content.data]),
    [
      ['image/png', PIXEL],
      ['image/png', PIXEL],
    ],
  );
  assert.ok(texts(replay, 'agent_message_chunk').includes('You said: [think] hello there'));
  assert.ok(replay.some((u) => u.sessionUpdate === 'tool_call' && u.kind === 'edit'));
  await agent.request(acp.methods.agent.session.close, { sessionId });
});

step('session/resume continues the conversation', async () => {
  await agent.request(acp.methods.agent.session.resume, { sessionId, cwd: project });
  const from = updates.length;
  const res = await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: '[recall]' }] });
  assert.equal(res.stopReason, 'end_turn');
  const said = texts(
    updates
      .slice(from)
      .filter((n) => n.sessionId === sessionId)
      .map((n) => n.update),
    'agent_message_chunk',
  );
  assert.ok(said.startsWith('Earlier you said: [think] hello there'), said);
});

step('a tool call allowed always is not asked again in the session', async () => {
  const before = permissions.length;
  answerPermission = async () => ({ outcome: { outcome: 'selected', optionId: 'allow_always' } });
  try {
    const ask = (file) => agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: `[write ${file} always]` }] });
    assert.equal((await ask('always-1.txt')).stopReason, 'end_turn');
    assert.equal((await ask('always-2.txt')).stopReason, 'end_turn');
    assert.equal(permissions.length - before, 1, 'asked once');
    assert.equal(readFileSync(join(project, 'always-2.txt'), 'utf8'), 'always\n');
  } finally {
    answerPermission = allowOnce;
  }
});

step('unknown methods and sessions get the protocol errors and the agent keeps serving', async () => {
  await assert.rejects(agent.request('_baton/no_such_method', {}), (err) => rpcCode(err) === -32601);
  await assert.rejects(
    agent.request(acp.methods.agent.session.prompt, { sessionId: '00000000-0000-4000-8000-000000000000', prompt: [{ type: 'text', text: 'x' }] }),
    (err) => rpcCode(err) === -32002,
  );
  const res = await agent.request(acp.methods.agent.session.list, {});
  assert.ok(Array.isArray(res.sessions));
});

test('malformed lines get JSON-RPC errors and the agent keeps serving', { timeout: 60_000 }, async () => {
  const a = startAgent();
  const lines = createInterface({ input: a.child.stdout });
  const answers = [];
  const wanted = 4;
  const got = /** @type {Promise<void>} */ (
    new Promise((res) => {
      lines.on('line', (l) => {
        answers.push(JSON.parse(l));
        if (answers.length === wanted) res();
      });
    })
  );
  a.child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"initialize",\n');
  a.child.stdin.write('[{"jsonrpc":"2.0","id":2,"method":"initialize"}]\n');
  a.child.stdin.write('{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":1}}\n');
  a.child.stdin.write('{"jsonrpc":"2.0","id":4,"method":"session/new","params":{"cwd":"relative/path","mcpServers":[]}}\n');
  await got;
  a.child.stdin.end();
  assert.equal(await a.exited, 0, a.stderr());
  assert.deepEqual(
    answers.map((m) => [m.id, m.error?.code ?? 'ok']),
    [
      [null, -32700],
      [null, -32600],
      [3, 'ok'],
      [4, -32602],
    ],
  );
  assert.ok(
    answers.every((m) => m.jsonrpc === '2.0'),
    'stdout carries only protocol lines',
  );
  // A client without terminal sign-in is told of Claude Code's login, not handed a command to run.
  const login = answers[2].result.authMethods;
  assert.deepEqual(
    login.map((m) => [m.id, m.type, m.args]),
    [['claude-login', undefined, undefined]],
  );
  assert.ok(existsSync(join(env.BATON_DATA_DIR, 'logs', 'baton.log')), 'logs go to Baton log file');
});
