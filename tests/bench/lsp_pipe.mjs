// A minimal LSP client over a child's stdio (Content-Length framing, JSON-RPC requests and
// notifications), for the bench scripts that need no full driver: memory_per_buffer.mjs.
// Answers server->client requests with null, or with what options.onRequest(method, params)
// returns (acp_overhead.mjs applies workspace/applyEdit). One instance per spawned server.
import { spawn } from 'node:child_process';

export class LspPipe {
  constructor(command, args, options = {}) {
    const { onRequest, ...spawnOptions } = options;
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', options.stderr ?? 'ignore'], ...spawnOptions });
    this.buffer = Buffer.alloc(0);
    this.pending = new Map();
    this.nextId = 1;
    this.onRequest = options.onRequest;
    this.child.stdout.on('data', (chunk) => this.onData(chunk));
  }
  onData(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) return;
      const match = /Content-Length: *(\d+)/i.exec(this.buffer.subarray(0, headerEnd).toString());
      const length = Number(match[1]);
      if (this.buffer.length < headerEnd + 4 + length) return;
      const body = JSON.parse(this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString());
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      if (body.method && body.id !== undefined)
        this.write({ jsonrpc: '2.0', id: body.id, result: this.onRequest ? this.onRequest(body.method, body.params) : null });
      else if (body.id !== undefined && this.pending.has(body.id)) {
        const { resolve, reject } = this.pending.get(body.id);
        this.pending.delete(body.id);
        if (body.error) reject(new Error(JSON.stringify(body.error)));
        else resolve(body.result);
      }
    }
  }
  write(message) {
    const body = Buffer.from(JSON.stringify(message));
    this.child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child.stdin.write(body);
  }
  request(method, params) {
    const id = this.nextId++;
    this.write({ jsonrpc: '2.0', id, method, params });
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }
  notify(method, params) {
    this.write({ jsonrpc: '2.0', method, params });
  }
  async close() {
    try {
      await Promise.race([this.request('shutdown', null), new Promise((r) => setTimeout(r, 2000))]);
      this.notify('exit', null);
    } catch {}
    setTimeout(() => this.child.kill('SIGKILL'), 2000).unref();
  }
}
