// Drives `hashline mcp` with the official MCP TypeScript SDK (Client + StdioClientTransport):
// lists the tools, reads a file, edits it by anchor, and gets an isError result for a stale
// anchor after the file changed on disk. Prints "N passed, N failed"; exits non-zero on failure.
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
  args: ["mcp", "--workspace", workspace],
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

// Issue 14, defect 2: a disk file's version must survive a JavaScript number (IEEE double);
// a range edit at the version the read reported must apply, not be refused as STALE_VERSION.
await check("disk versions are exact in JavaScript: range at the read's version applies", async () => {
  const read = await client.callTool({ name: "hashline_read", arguments: { path: "app.js" } });
  assert.notEqual(read.isError, true, JSON.stringify(read));
  const version = read.structuredContent.version;
  assert.ok(Number.isSafeInteger(version), `version ${version} is not a safe integer`);
  const result = await client.callTool({
    name: "hashline_range",
    arguments: { path: "app.js", start: 2, end: 2, version, content: "  return a + b; // v" },
  });
  assert.notEqual(result.isError, true, JSON.stringify(result));
  assert.equal(result.structuredContent.status, "applied");
  assert.ok(Number.isSafeInteger(result.structuredContent.version), "version after the edit");
  assert.equal(fs.readFileSync(file, "utf8").split("\n")[1], "  return a + b; // v");
});

await check("an unknown tool is a protocol error", async () => {
  await assert.rejects(client.callTool({ name: "hashline_nope", arguments: {} }));
});

await client.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
