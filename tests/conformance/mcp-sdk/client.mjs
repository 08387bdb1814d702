// Drives `hashline mcp` with the official MCP TypeScript SDK (Client + StdioClientTransport):
// lists the tools, reads a file, edits it by anchor, gets an isError result for a stale anchor
// after the file changed on disk, edits by line range at the version a read reported (exact in
// a JS number), and gets INVALID_ARGUMENTS for malformed arguments, with nothing changed. Prints "N passed, N failed"; exits non-zero on failure.
// Usage: node client.mjs HASHLINE_BIN WORKSPACE_DIR
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";

const [bin, workspace] = process.argv.slice(2);
let passed = 0;
let failed = 0;
async function check(name, body) {
  try {
    await body();
    passed++;
    console.log(`ok   ${name}`);
  } catch (error) {
    failed++;
    console.log(`FAIL ${name}: ${error.stack || error}`);
  }
}

const file = path.join(workspace, "app.js");
fs.writeFileSync(file, "function add(a, b) {\n  return a + b;\n}\n\nmodule.exports = { add };\n");

const transport = new StdioClientTransport({
  command: bin,
  // --structured: this client is a program that reads the result objects, not a model.
  args: ["mcp", "--workspace", workspace, "--structured"],
  env: { ...process.env },
  stderr: "inherit",
});
const client = new Client({ name: "hashline-sdk-test", version: "1.0.0" });
await client.connect(transport);

await check("server info and protocol version", async () => {
  assert.equal(client.getServerVersion().name, "hashline");
  assert.ok(client.getServerCapabilities().tools);
});

await check("tools/list names every tool with a schema", async () => {
  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name);
  for (const name of ["hashline_draft", "hashline_ed", "hashline_edit", "hashline_headtail",
    "hashline_patch", "hashline_range", "hashline_read", "hashline_replace", "hashline_status"])
    assert.ok(names.includes(name), name);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, "object", tool.name);
    assert.ok(tool.description.length > 40, tool.name);
  }
});

await client.ping();

let anchors = [];
await check("hashline_read returns anchored rows", async () => {
  const result = await client.callTool({ name: "hashline_read", arguments: { path: "app.js" } });
  assert.notEqual(result.isError, true, JSON.stringify(result));
  assert.equal(result.structuredContent.status, "ok");
  assert.equal(result.structuredContent.lineCount, 5);
  anchors = result.structuredContent.lines.map((row) => row.anchor);
  assert.match(result.content[0].text, /^# app\.js/);
  assert.ok(result.content[0].text.includes(`${anchors[1]}→  return a + b;`));
});

await check("hashline_edit applies by anchor", async () => {
  const result = await client.callTool({
    name: "hashline_edit",
    arguments: { path: "app.js", edits: [{ op: "replace", anchor: anchors[1], content: "  return a + b + 0;" }] },
  });
  assert.notEqual(result.isError, true, JSON.stringify(result));
  assert.equal(result.structuredContent.status, "applied");
  assert.ok(result.content[0].text.includes("+  return a + b + 0;"));
  assert.equal(fs.readFileSync(file, "utf8"),
    "function add(a, b) {\n  return a + b + 0;\n}\n\nmodule.exports = { add };\n");
});

await check("a stale anchor is an isError result with code and fresh anchors", async () => {
  const read = await client.callTool({ name: "hashline_read", arguments: { path: "app.js" } });
  const line2 = read.structuredContent.lines[1].anchor;
  fs.writeFileSync(file, "function add(a, b) {\n  return b + a;\n}\n\nmodule.exports = { add };\n");
  const result = await client.callTool({
    name: "hashline_edit",
    arguments: { path: "app.js", edits: [{ op: "replace", anchor: line2, content: "  return 0;" }] },
  });
  assert.equal(result.isError, true, JSON.stringify(result));
  assert.match(result.content[0].text, /^STALE_ANCHOR/);
  assert.ok(result.content[0].text.includes("fresh anchors:"));
  assert.ok(result.content[0].text.includes("return b + a;"));
  assert.equal(result.structuredContent.error.code, "STALE_ANCHOR");
  assert.equal(fs.readFileSync(file, "utf8"),
    "function add(a, b) {\n  return b + a;\n}\n\nmodule.exports = { add };\n");
});

await check("a disk version is exact in a JS number: hashline_range at it applies", async () => {
  const big = path.join(workspace, "versions.txt");
  // Several contents: with 62-bit version ids nearly every one was rounded by JavaScript.
  for (let i = 0; i < 8; i++) {
    fs.writeFileSync(big, `version ${i}\nold line\nend\n`);
    const read = await client.callTool({ name: "hashline_read", arguments: { path: "versions.txt" } });
    assert.notEqual(read.isError, true, JSON.stringify(read));
    const version = read.structuredContent.version;
    assert.ok(Number.isSafeInteger(version), `version ${version} is not a safe integer`);
    assert.ok(read.content[0].text.includes(String(version)), read.content[0].text);
    const result = await client.callTool({
      name: "hashline_range",
      arguments: { path: "versions.txt", start: 2, end: 2, content: "new line", version },
    });
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.equal(result.structuredContent.status, "applied");
    assert.ok(Number.isSafeInteger(result.structuredContent.version));
    assert.equal(fs.readFileSync(big, "utf8"), `version ${i}\nnew line\nend\n`);
  }
});

await check("malformed arguments are refused as INVALID_ARGUMENTS and change nothing", async () => {
  const before = fs.readFileSync(file, "utf8");
  const log = async () => (await client.callTool({ name: "hashline_log", arguments: {} }))
    .structuredContent.ops;
  const ops = await log();
  assert.ok(ops.length >= 2, JSON.stringify(ops));
  const cases = [
    ["hashline_rewind", { turn: "latest" }, "params.turn"],
    ["hashline_rewind", { turn: 2.5 }, "params.turn"],
    ["hashline_rewind", { turn: "1x" }, "params.turn"],
    ["hashline_rewind", { turn: 1, dry_run: "yes" }, "params.dry_run"],
    ["hashline_undo", { op: String(ops[0].op), dry_run: "yes" }, "params.dry_run"],
    ["hashline_undo", { op: "1x" }, "params.op"],
    ["hashline_log", { limit: "5" }, "params.limit"],
    ["hashline_read", { path: "app.js", tier: "bogus" }, "params.tier"],
    ["hashline_range", { path: "app.js", start: "1", end: 1, content: "x", version: 1 }, "params.start"],
    ["hashline_edit", { path: "app.js", edits: [{ op: "replace", anchor: "1:aaa:bbb", content: "x" }], dry_run: 1 },
      "params.dry_run"],
    ["hashline_replace", { path: "app.js", old: "a + b", new: "b + a", dryrun: true }, "params.dryrun"],
  ];
  for (const [name, args, field] of cases) {
    const result = await client.callTool({ name, arguments: args });
    assert.equal(result.isError, true, `${name} ${JSON.stringify(args)}: ${JSON.stringify(result)}`);
    assert.match(result.content[0].text, /^INVALID_ARGUMENTS: invalid params/);
    assert.ok(result.content[0].text.includes(field), result.content[0].text);
  }
  assert.equal(fs.readFileSync(file, "utf8"), before);
  assert.deepEqual(await log(), ops);
});

await check("an unknown tool is a protocol error", async () => {
  await assert.rejects(client.callTool({ name: "hashline_nope", arguments: {} }));
});

await client.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
