// A tiny scripted editor for scripts/demo (Node's standard library only): starts `hashline lsp`,
// opens one file with unsaved changes in its "buffer", and applies the workspace/applyEdit
// requests the sidecar sends (as a real editor would), then reports the buffer.
//
// Usage: node editor-client.mjs HASHLINE_BIN WORKSPACE FILE UNSAVED_TEXT_FILE CONTROL_DIR
//   writes CONTROL_DIR/ready once the buffer is open; stops when CONTROL_DIR/stop appears, after
//   writing the buffer's text to CONTROL_DIR/buffer.txt. Exit 0 on a clean shutdown.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const [bin, workspace, file, unsavedFile, control] = process.argv.slice(2);
const uri = "file://" + path.resolve(workspace, file);
let buffer = fs.readFileSync(unsavedFile, "utf8");
let version = 1;

const server = spawn(bin, ["lsp", "--log-file", path.join(control, "hashline-lsp.log")], {
  stdio: ["pipe", "pipe", "inherit"],
});
let nextId = 1;
const pending = new Map();
let input = Buffer.alloc(0);

function send(message) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...message }), "utf8");
  server.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
  server.stdin.write(body);
}
function request(method, params) {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((resolve) => pending.set(id, resolve));
}
const notify = (method, params) => send({ method, params });

// Offsets in UTF-16 code units (the encoding this client negotiates).
function offsetOf(text, position) {
  let offset = 0;
  for (let line = 0; line < position.line; line++) offset = text.indexOf("\n", offset) + 1;
  return offset + position.character;
}

function applyEdit(params) {
  const change = params.edit.documentChanges[0];
  if (change.textDocument.uri !== uri || change.textDocument.version !== version)
    return { applied: false, failureReason: "version mismatch" };
  const edits = [...change.edits].sort(
    (a, b) => offsetOf(buffer, b.range.start) - offsetOf(buffer, a.range.start));
  for (const edit of edits) {
    const start = offsetOf(buffer, edit.range.start);
    const end = offsetOf(buffer, edit.range.end);
    buffer = buffer.slice(0, start) + edit.newText + buffer.slice(end);
  }
  version++;
  notify("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text: buffer }] });
  console.log(`  [editor] applied ${edits.length} edit(s) from hashline to the buffer of ${file} (now version ${version})`);
  return { applied: true };
}

server.stdout.on("data", (chunk) => {
  input = Buffer.concat([input, chunk]);
  for (;;) {
    const headerEnd = input.indexOf("\r\n\r\n");
    if (headerEnd < 0) return;
    const length = Number(/Content-Length: *(\d+)/i.exec(input.slice(0, headerEnd).toString())[1]);
    if (input.length < headerEnd + 4 + length) return;
    const message = JSON.parse(input.slice(headerEnd + 4, headerEnd + 4 + length).toString("utf8"));
    input = input.slice(headerEnd + 4 + length);
    if (message.method === "workspace/applyEdit") send({ id: message.id, result: applyEdit(message.params) });
    else if (message.method && message.id !== undefined) send({ id: message.id, result: null });
    else if (message.id !== undefined && pending.has(message.id)) {
      pending.get(message.id)(message);
      pending.delete(message.id);
    }
  }
});

await request("initialize", {
  processId: process.pid,
  rootUri: "file://" + path.resolve(workspace),
  capabilities: { workspace: { applyEdit: true, workspaceEdit: { documentChanges: true } } },
  clientInfo: { name: "demo-editor" },
});
notify("initialized", {});
notify("textDocument/didOpen", { textDocument: { uri, languageId: "javascript", version, text: buffer } });
await request("hashline/status", {}); // the server has processed the open
fs.writeFileSync(path.join(control, "ready"), "");

const stop = path.join(control, "stop");
while (!fs.existsSync(stop)) await new Promise((resolve) => setTimeout(resolve, 50));
fs.writeFileSync(path.join(control, "buffer.txt"), buffer);
await request("shutdown", null);
notify("exit", null);
server.on("exit", (code) => process.exit(code === 0 ? 0 : 1));
