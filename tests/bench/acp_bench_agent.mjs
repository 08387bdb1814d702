// The scripted ACP agent of tests/bench/acp_overhead.mjs. Newline-delimited JSON-RPC on stdio:
// - `bench/ping` (notification): answered at once with `bench/pong` carrying the same params
//   (the round trip the overhead part times, with and without `hashline acp` in between);
// - `initialize` / `session/new` requests: answered (agentInfo.name "bench-agent", "sess-1");
// - `bench/write {sessionId, path, runs}` (notification): `runs` times, reads the file with
//   fs/read_text_file, changes its middle line and writes it whole with fs/write_text_file,
//   timing each call here where the agent waits for it; then `bench/written {reads, writes}`
//   (milliseconds) or `bench/failed {error}`.
import { createInterface } from 'node:readline';

const pending = new Map();
let nextId = 1000;
const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const ask = (method, params) =>
  new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    send({ jsonrpc: '2.0', id, method, params });
  });

async function writeRuns({ sessionId, path, runs }) {
  const reads = [], writes = [];
  for (let run = 0; run < runs; run++) {
    let start = process.hrtime.bigint();
    const { content } = await ask('fs/read_text_file', { sessionId, path });
    reads.push(Number(process.hrtime.bigint() - start) / 1e6);
    const lines = content.split('\n');
    const middle = Math.floor(lines.length / 2);
    lines[middle] = `changed by the agent, run ${run}`.padEnd(lines[middle].length, '.');
    start = process.hrtime.bigint();
    await ask('fs/write_text_file', { sessionId, path, content: lines.join('\n') });
    writes.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { reads, writes };
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === 'bench/ping') {
    send({ jsonrpc: '2.0', method: 'bench/pong', params: message.params });
  } else if (message.method === 'initialize') {
    send({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: 1, agentInfo: { name: 'bench-agent', version: '1' } } });
  } else if (message.method === 'session/new') {
    send({ jsonrpc: '2.0', id: message.id, result: { sessionId: 'sess-1' } });
  } else if (message.method === 'bench/write') {
    writeRuns(message.params).then(
      (times) => send({ jsonrpc: '2.0', method: 'bench/written', params: times }),
      (error) => send({ jsonrpc: '2.0', method: 'bench/failed', params: { error: String(error.message ?? error) } }));
  } else if (message.id !== undefined && pending.has(message.id)) {
    const { resolve, reject } = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) reject(new Error(JSON.stringify(message.error)));
    else resolve(message.result);
  }
});
