// Memory per open buffer: starts a server, opens M documents of N lines each (the shared
// driver's code-like generator style: ~39 bytes per line, CJK and astral characters), forces
// each open to complete with a request, and reports the server's RSS growth per buffer and per
// document byte. Used by scripts/bench ("memory per open buffer" table).
//
// Usage: node memory_per_buffer.mjs --server "CMD ARGS" --name NAME [--buffers 50] [--lines 10000]
//        [--barrier hashline|peer]   (hashline: hashline/snapshot; peer: bench/snapshot)
// Prints one JSON object: {name, buffers, lines, docBytes, rssBeforeKiB, rssAfterKiB, perBufferKiB, perDocByte}.
import { readFileSync } from 'node:fs';
import { LspPipe } from './lsp_pipe.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs), []));
const buffers = Number(args.buffers ?? 50);
const lines = Number(args.lines ?? 10000);
const barrier = args.barrier ?? 'hashline';

function makeDocument(seed) {
  let state = seed * 2654435761 + 1;
  const next = () => ((state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32);
  const words = ['int', 'value', 'return', 'const', 'auto', 'std::string', 'for', 'if', '// note', '"text"'];
  const out = [];
  for (let i = 0; i < lines; i += 1) {
    let line = ' '.repeat(Math.floor(next() * 8) * 2);
    while (line.length < 36) line += words[Math.floor(next() * words.length)] + ' ';
    if (next() < 0.046) line += '中文';
    if (next() < 0.024) line += '😀';
    out.push(line + ';');
  }
  return out.join('\n') + '\n';
}

const rssKiB = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
};

const [command, ...commandArgs] = args.server.split(' ');
const server = new LspPipe(command, commandArgs);
await server.request('initialize', { processId: null, rootUri: null, capabilities: { general: { positionEncodings: ['utf-16'] } } });
server.notify('initialized', {});
const settle = () => new Promise((r) => setTimeout(r, 300));
await settle();
const before = rssKiB(server.child.pid);
let docBytes = 0;
for (let b = 0; b < buffers; b += 1) {
  const uri = `file:///bench/mem/doc-${b}.cpp`;
  const text = makeDocument(b + 1);
  docBytes += Buffer.byteLength(text);
  server.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'cpp', version: 1, text } });
  if (barrier === 'hashline') await server.request('hashline/snapshot', { textDocument: { uri } });
  else await server.request('bench/snapshot', { uri });
}
await settle();
const after = rssKiB(server.child.pid);
await server.close();
const perBufferKiB = (after - before) / buffers;
console.log(JSON.stringify({
  name: args.name ?? command, buffers, lines, docBytes, rssBeforeKiB: before, rssAfterKiB: after,
  perBufferKiB, perDocByte: ((after - before) * 1024) / docBytes,
}));
process.exit(0);
