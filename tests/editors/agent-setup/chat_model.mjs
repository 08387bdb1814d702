// A scripted local OpenAI-compatible endpoint for tests/editors/agent-setup: POST
// /v1/chat/completions, streamed (SSE chunks + [DONE]) or not. The model is a fixed script keyed
// on how many tool results the conversation holds: 0 -> call the offered tool whose name ends in
// `hashline_read` on FILE; 1 -> call `hashline_edit` replacing line LINE, its anchor copied from
// the read's rows in the tool result; 2+ -> a final message. Every request is appended to
// LOG (JSON lines) so the test sees the tools offered and the tool-result bytes handed back.
// Usage: node chat_model.mjs PORTFILE LOG FILE LINE NEWTEXT [PORT] (PORT: listen there, else any)
import http from "node:http";
import fs from "node:fs";

const [portFile, log, file, line, newText, fixedPort] = process.argv.slice(2);
let calls = 0;

function toolResults(messages) {
  return messages.filter((m) => m.role === "tool").map((m) =>
    typeof m.content === "string" ? m.content
      : (m.content || []).map((part) => part.text ?? "").join(""));
}

function plan(body) {
  const tools = (body.tools || []).map((t) => t.function?.name ?? t.name);
  const results = toolResults(body.messages || []);
  const named = (suffix) => tools.find((name) => name.endsWith(suffix));
  if (results.length === 0 && named("hashline_read"))
    return { call: named("hashline_read"), arguments: { path: file } };
  if (results.length === 1 && named("hashline_edit")) {
    const row = results[0].split("\n").find((r) => r.startsWith(`${line}:`));
    const anchor = row ? row.slice(0, row.indexOf("\u2192")) : `${line}:missing`;
    return { call: named("hashline_edit"),
      arguments: { path: file, edits: [{ op: "replace", anchor, content: newText }] } };
  }
  return { text: results.length ? "done: " + results.at(-1).slice(0, 200) : "no hashline tools offered" };
}

function chunk(body, delta, finish) {
  return { id: "chatcmpl-fake", object: "chat.completion.chunk", created: 1,
    model: body.model || "fake-model", choices: [{ index: 0, delta, finish_reason: finish }] };
}

const server = http.createServer((req, res) => {
  let raw = "";
  req.on("data", (c) => (raw += c));
  req.on("end", () => {
    if (req.method === "GET" && req.url.endsWith("/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "fake-model", object: "model" }] }));
      return;
    }
    let body = {};
    try { body = JSON.parse(raw || "{}"); } catch {}
    fs.appendFileSync(log, JSON.stringify({ url: req.url, body }) + "\n");
    if (!req.url.endsWith("/chat/completions")) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "only chat/completions here" } }));
      return;
    }
    const step = plan(body);
    const id = `call_${++calls}`;
    const message = step.call
      ? { role: "assistant", content: null, tool_calls: [{ index: 0, id, type: "function",
          function: { name: step.call, arguments: JSON.stringify(step.arguments) } }] }
      : { role: "assistant", content: step.text };
    const finish = step.call ? "tool_calls" : "stop";
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    if (!body.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "chatcmpl-fake", object: "chat.completion", created: 1,
        model: body.model, choices: [{ index: 0, message, finish_reason: finish }], usage }));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (o) => res.write(`data: ${JSON.stringify(o)}\n\n`);
    send(chunk(body, { role: "assistant", content: "" }, null));
    if (step.call) send(chunk(body, { tool_calls: message.tool_calls }, null));
    else send(chunk(body, { content: step.text }, null));
    send(chunk(body, {}, finish));
    send({ ...chunk(body, {}, null), choices: [], usage });
    res.end("data: [DONE]\n\n");
  });
});
server.listen(Number(fixedPort || 0), "127.0.0.1", () => fs.writeFileSync(portFile, String(server.address().port)));
setTimeout(() => process.exit(0), 10 * 60 * 1000).unref(); // never outlives a hung test
