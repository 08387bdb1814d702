// A scripted local model endpoint for agent CLIs. It speaks the Anthropic Messages API as Claude
// Code uses it (POST /v1/messages, SSE or JSON), the OpenAI Responses API as Codex uses it (POST
// /v1/responses, SSE) and the Gemini API as Gemini CLI uses it (POST
// /v1beta/models/M:streamGenerateContent?alt=sse, SSE) and the OpenAI Chat Completions API as
// codecompanion.nvim's openai adapter uses it (POST /v1/chat/completions, JSON or SSE). The n-th
// conversation request (any API)
// gets the n-th turn of a script: a JSON array; each turn is a list of items —
// {"call": NAME, "arguments": {...}} becomes a tool call (Messages: tool_use; Responses:
// function_call; Gemini: functionCall), {"text": "..."} an assistant message. A string
// "{{anchor:N}}" anywhere in a call's arguments becomes the anchor of line N (`N:LLL:BBB`) taken
// from the rows of the latest tool result in the conversation — what a model copies from a
// hashline read — and a call named "*SUFFIX" calls the offered tool whose name ends in SUFFIX. An
// item {"waitFor": PATH} holds the turn's answer until that file exists (a test makes the user
// type between two turns). A turn is a request that offers tools (Messages), a chat completion or a streamed request
// (Responses, Gemini); Claude Code's and Gemini CLI's side requests (titles, topic checks, model
// routing; :generateContent with a JSON schema) get a minimal answer and use no turn, and
// :countTokens / count_tokens a count. Every request is logged as one JSON line ({n, method, url,
// body}; n = the turn it got) to --log. Prints "listening PORT".
// Usage: node fake_model.mjs --script turns.json --log requests.jsonl [--port 0]
import http from 'node:http';
import fs from 'node:fs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
const turns = JSON.parse(fs.readFileSync(args.script, 'utf8'));
const logPath = args.log;
let n = 0;

// The text of the latest tool result in a conversation request, whichever API it uses.
function latestToolResult(body) {
  const text = (c) => (typeof c === 'string' ? c
    : Array.isArray(c) ? c.map((p) => (typeof p === 'string' ? p : p.text ?? p.output ?? '')).join('')
    : c == null ? '' : JSON.stringify(c));
  let found = '';
  for (const m of body?.messages ?? []) { // Anthropic: user turns carrying tool_result blocks
    for (const block of Array.isArray(m.content) ? m.content : [])
      if (block.type === 'tool_result') found = text(block.content);
    if (m.role === 'tool') found = text(m.content); // Chat Completions
  }
  for (const item of Array.isArray(body?.input) ? body.input : []) // Responses
    if (item.type === 'function_call_output') found = text(item.output);
  for (const c of body?.contents ?? []) // Gemini
    for (const part of c.parts ?? [])
      if (part.functionResponse) {
        const r = part.functionResponse.response ?? {};
        found = typeof r.output === 'string' ? r.output : JSON.stringify(r);
      }
  return found;
}

// The names of the tools a request offers, whichever API it uses.
// A Responses API namespace (codex offers an MCP server as {type: "namespace", name:
// "mcp__SERVER", tools: [...]}) contributes its tools with the namespace beside their names.
function offeredTools(body) {
  const found = [];
  for (const tool of body?.tools ?? []) {
    if (tool.type === 'namespace') {
      for (const inner of tool.tools ?? []) found.push({ name: inner.name, namespace: tool.name });
      continue;
    }
    if (tool.name) found.push({ name: tool.name }); // Messages, Responses
    if (tool.function?.name) found.push({ name: tool.function.name });
    for (const decl of tool.functionDeclarations ?? []) found.push({ name: decl.name }); // Gemini
  }
  return found;
}

// Replaces "{{anchor:N}}" in a call's arguments with line N's anchor from the latest tool result,
// and a call named "*SUFFIX" with the offered tool whose name ends in SUFFIX (each CLI prefixes an
// MCP server's tools in its own way).
function withAnchors(spec, body) {
  if (!spec.call) return spec;
  if (spec.call.startsWith('*')) {
    const suffix = spec.call.slice(1);
    const named = offeredTools(body).find((tool) => tool.name.endsWith(suffix));
    spec = { ...spec, call: named?.name ?? `no-offered-tool-ending-in-${suffix}`, namespace: named?.namespace };
  }
  const rows = latestToolResult(body).split('\n');
  const fill = (v) => {
    if (typeof v === 'string')
      return v.replace(/\{\{anchor:(\d+)\}\}/g, (_, line) => {
        const row = rows.find((r) => r.startsWith(`${line}:`) && r.includes('\u2192'));
        return row ? row.slice(0, row.indexOf('\u2192')) : `${line}:no-row-in-the-last-tool-result`;
      });
    if (Array.isArray(v)) return v.map(fill);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]));
    return v;
  };
  return { ...spec, arguments: fill(spec.arguments ?? {}) };
}

// Anthropic Messages: the content blocks of one turn.
function anthropicBlocks(specs, turn) {
  return specs.map((spec, k) => (spec.call
    ? { type: 'tool_use', id: `toolu_${turn}_${k}`, name: spec.call, input: spec.arguments ?? {} }
    : { type: 'text', text: spec.text ?? '' }));
}

function anthropicMessage(body, turn, blocks) {
  return {
    id: `msg_fake_${turn}`, type: 'message', role: 'assistant', model: body?.model ?? 'fake-model',
    content: blocks, stop_reason: blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

function anthropicStream(res, body, turn, blocks) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const message = anthropicMessage(body, turn, blocks);
  send('message_start', { message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } } });
  blocks.forEach((block, index) => {
    if (block.type === 'tool_use') {
      send('content_block_start', { index, content_block: { ...block, input: {} } });
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    } else {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    }
    send('content_block_stop', { index });
  });
  send('message_delta', { delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: 10 } });
  send('message_stop', {});
  res.end();
}

function outputItem(spec, turn, k) {
  if (spec.call) {
    return {
      type: 'function_call', id: `fc_${turn}_${k}`, call_id: `call_${turn}_${k}`, status: 'completed',
      name: spec.call, arguments: JSON.stringify(spec.arguments ?? {}),
      ...(spec.namespace ? { namespace: spec.namespace } : {}),
    };
  }
  return {
    type: 'message', id: `msg_${turn}_${k}`, role: 'assistant', status: 'completed',
    content: [{ type: 'output_text', text: spec.text ?? '', annotations: [] }],
  };
}

function stream(res, turn, items) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let seq = 0;
  const send = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  const id = `resp_${turn}`;
  send('response.created', { response: { id, object: 'response', status: 'in_progress', output: [] } });
  items.forEach((item, k) => {
    send('response.output_item.added', { output_index: k, item: { ...item, status: 'in_progress' } });
    if (item.type === 'message') {
      send('response.output_text.delta', { output_index: k, content_index: 0, item_id: item.id, delta: item.content[0].text });
    }
    send('response.output_item.done', { output_index: k, item });
  });
  send('response.completed', {
    response: {
      id, object: 'response', status: 'completed', output: items,
      usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 10,
        output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 20 },
    },
  });
  res.end();
}

// The smallest value matching a (Gemini, OpenAPI-style) JSON schema: first enum value, required
// properties filled.
function sample(schema) {
  if (!schema || typeof schema !== 'object') return null;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  switch (String(schema.type || '').toLowerCase()) {
    case 'object': {
      const out = {};
      for (const [name, sub] of Object.entries(schema.properties || {})) out[name] = sample(sub);
      return out;
    }
    case 'array': return [];
    case 'integer': case 'number': return 1;
    case 'boolean': return false;
    case 'string': return 'fake';
    default: return null;
  }
}

function geminiCandidate(parts) {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 10, totalTokenCount: 20 },
    modelVersion: 'fake-model',
  };
}

function geminiParts(specs) {
  return specs.map((spec) => (spec.call
    ? { functionCall: { name: spec.call, args: spec.arguments ?? {} } }
    : { text: spec.text ?? '' }));
}

// Chat Completions: the assistant message of one turn (tool_calls or content).
function chatMessage(specs, turn) {
  const calls = specs.filter((spec) => spec.call).map((spec, k) => ({
    id: `call_${turn}_${k}`, type: 'function',
    function: { name: spec.call, arguments: JSON.stringify(spec.arguments ?? {}) },
  }));
  const content = specs.filter((spec) => !spec.call).map((spec) => spec.text ?? '').join('');
  return { role: 'assistant', content: content || null, ...(calls.length ? { tool_calls: calls } : {}) };
}

function chatCompletion(res, body, turn, message) {
  const finish = message.tool_calls ? 'tool_calls' : 'stop';
  const base = { id: `chatcmpl_${turn}`, created: 0, model: body?.model ?? 'fake-model' };
  const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };
  if (!body?.stream)
    return json(res, 200, { ...base, object: 'chat.completion', usage,
      choices: [{ index: 0, message, finish_reason: finish }] });
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta, finishReason) => res.write(`data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finishReason }], ...(finishReason ? { usage } : {}) })}\n\n`);
  chunk({ role: 'assistant', content: message.content ?? '',
    ...(message.tool_calls ? { tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })) } : {}) }, null);
  chunk({}, finish);
  res.end('data: [DONE]\n\n');
}

// Resolves once every {"waitFor": PATH} item of a turn names an existing file.
function released(specs) {
  const paths = specs.filter((spec) => spec.waitFor).map((spec) => spec.waitFor);
  return new Promise((resolve) => {
    const check = () => (paths.every((path) => fs.existsSync(path)) ? resolve() : setTimeout(check, 20));
    check();
  });
}

function json(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (d) => { body += d; });
  req.on('end', () => {
    const path = req.url.split('?')[0];
    let parsed = null;
    try { parsed = body ? JSON.parse(body) : null; } catch { parsed = null; }
    const anthropic = req.method === 'POST' && /\/v1\/messages(\/count_tokens)?$/.exec(path);
    const anthropicTurn = anthropic && !anthropic[1] && Array.isArray(parsed?.tools) && parsed.tools.length > 0;
    const gemini = req.method === 'POST' && /\/models\/[^/]+:(streamGenerateContent|generateContent|countTokens)$/.exec(path);
    const chat = req.method === 'POST' && /\/chat\/completions$/.test(path);
    const isTurn = (req.method === 'POST' && /\/responses$/.test(path)) || (gemini && gemini[1] === 'streamGenerateContent') ||
      anthropicTurn || chat;
    const entry = { n: isTurn ? n + 1 : null, method: req.method, url: req.url, body: null };
    entry.body = parsed ?? (body || null);
    if (logPath) fs.appendFileSync(logPath, JSON.stringify(entry) + '\n');
    if (gemini && gemini[1] === 'countTokens') return json(res, 200, { totalTokens: 10 });
    if (anthropic && anthropic[1]) return json(res, 200, { input_tokens: 10 });
    if (anthropic && !anthropicTurn) {
      // A side request (title, topic, quota check): a short text answer, no turn used.
      const blocks = [{ type: 'text', text: '{}' }];
      if (parsed?.stream) return anthropicStream(res, parsed, 0, blocks);
      return json(res, 200, anthropicMessage(parsed, 0, blocks));
    }
    if (gemini && gemini[1] === 'generateContent') {
      const schema = entry.body?.generationConfig?.responseJsonSchema ?? entry.body?.generationConfig?.responseSchema;
      return json(res, 200, geminiCandidate([{ text: schema ? JSON.stringify(sample(schema)) : 'ok' }]));
    }
    if (!isTurn) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `fake model: no route ${req.method} ${req.url}` } }));
      return;
    }
    const turn = n++;
    const script = turn < turns.length ? turns[turn] : [{ text: 'fake model: script exhausted' }];
    released(script).then(() => answer(res, parsed, turn,
      script.filter((spec) => !spec.waitFor).map((spec) => withAnchors(spec, parsed)), { anthropic, gemini, chat }));
  });
});

// The answer to conversation turn `turn`, in the API the request used.
function answer(res, parsed, turn, specs, { anthropic, gemini, chat }) {
  if (chat) return chatCompletion(res, parsed, turn, chatMessage(specs, turn));
  if (anthropic) {
    const blocks = anthropicBlocks(specs, turn);
    if (parsed?.stream) return anthropicStream(res, parsed, turn, blocks);
    return json(res, 200, anthropicMessage(parsed, turn, blocks));
  }
  if (gemini) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(`data: ${JSON.stringify(geminiCandidate(geminiParts(specs)))}\n\n`);
    return;
  }
  stream(res, turn, specs.map((spec, k) => outputItem(spec, turn, k)));
}

server.listen(Number(args.port ?? 0), '127.0.0.1', () => {
  console.log(`listening ${server.address().port}`);
});
