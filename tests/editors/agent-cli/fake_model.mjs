// A scripted local model endpoint for agent CLIs. It speaks the OpenAI Responses API as Codex
// uses it (POST /v1/responses, SSE) and the Gemini API as Gemini CLI uses it (POST
// /v1beta/models/M:streamGenerateContent?alt=sse, SSE). The n-th conversation request (either
// API) gets the n-th turn of a script: a JSON array; each turn is a list of items —
// {"call": NAME, "arguments": {...}} becomes a tool call (Responses: function_call; Gemini:
// functionCall), {"text": "..."} an assistant message. Gemini CLI's side requests (non-streaming
// :generateContent with a JSON schema: model routing, next-speaker checks) get a minimal object
// matching the schema, and :countTokens a count; they do not use turns. Every request is logged as
// one JSON line ({n, method, url, body}; n = the turn it got) to --log. Prints "listening PORT".
// Usage: node fake_model.mjs --script turns.json --log requests.jsonl [--port 0]
import http from 'node:http';
import fs from 'node:fs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
const turns = JSON.parse(fs.readFileSync(args.script, 'utf8'));
const logPath = args.log;
let n = 0;

function outputItem(spec, turn, k) {
  if (spec.call) {
    return {
      type: 'function_call', id: `fc_${turn}_${k}`, call_id: `call_${turn}_${k}`, status: 'completed',
      name: spec.call, arguments: JSON.stringify(spec.arguments ?? {}),
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

function json(res, status, value) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (d) => { body += d; });
  req.on('end', () => {
    const path = req.url.split('?')[0];
    const gemini = req.method === 'POST' && /\/models\/[^/]+:(streamGenerateContent|generateContent|countTokens)$/.exec(path);
    const isTurn = (req.method === 'POST' && /\/responses$/.test(path)) || (gemini && gemini[1] === 'streamGenerateContent');
    const entry = { n: isTurn ? n + 1 : null, method: req.method, url: req.url, body: null };
    try { entry.body = body ? JSON.parse(body) : null; } catch { entry.body = body; }
    if (logPath) fs.appendFileSync(logPath, JSON.stringify(entry) + '\n');
    if (gemini && gemini[1] === 'countTokens') return json(res, 200, { totalTokens: 10 });
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
    if (gemini) {
      const specs = turn < turns.length ? turns[turn] : [{ text: 'fake model: script exhausted' }];
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(`data: ${JSON.stringify(geminiCandidate(geminiParts(specs)))}\n\n`);
      return;
    }
    if (turn >= turns.length) {
      // The script ran out: end the conversation with a message so the CLI stops.
      stream(res, turn, [outputItem({ text: 'fake model: script exhausted' }, turn, 0)]);
      return;
    }
    stream(res, turn, turns[turn].map((spec, k) => outputItem(spec, turn, k)));
  });
});
server.listen(Number(args.port ?? 0), '127.0.0.1', () => {
  console.log(`listening ${server.address().port}`);
});
