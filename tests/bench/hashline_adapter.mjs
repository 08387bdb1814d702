// Maps the shared bench driver (../shared/bench/driver.mjs --adapter) onto hashline's own
// requests, so hashline runs the same workload, timing and verification as the peers.
//   snapshot -> hashline/snapshot {textDocument: {uri}} -> {version, lineCount, hash, hashAlgo}
//   read     -> hashline/read {uri, from, to, tier: "line", format: "text"} (1-based, inclusive)
//               whose rows "LINE:LLL→text" become "LINE:LLL|text".
// hashline.read has no phantom line after a final newline (DESIGN §2), while the driver's
// window may include that last, empty LSP line; the adapter appends it with the digest hashline
// gives an empty line, learned once from a one-line probe document (opened on first use).
const PROBE_URI = 'file:///bench/hashline-adapter-empty-line-probe.txt';
let emptyLineDigest = null;

async function learnEmptyLineDigest(conn) {
  conn.sendNotification('textDocument/didOpen', {
    textDocument: { uri: PROBE_URI, languageId: 'text', version: 1, text: '\n' },
  });
  const probe = await conn.sendRequest('hashline/read', { uri: PROBE_URI, tier: 'line', session: 'bench-probe' });
  const row = probe.lines?.[0];
  if (!row || row.text !== '') throw new Error(`probe read gave ${JSON.stringify(probe)}`);
  conn.sendNotification('textDocument/didClose', { textDocument: { uri: PROBE_URI } });
  return row.anchor.split(':')[1];
}

export default {
  async snapshot(conn, uri) {
    const r = await conn.sendRequest('hashline/snapshot', { textDocument: { uri } });
    return { version: r.version, lineCount: r.lineCount, hash: r.sha256, hashAlgo: 'sha256' };
  },

  async read(conn, uri, startLine, endLine) {
    const r = await conn.sendRequest('hashline/read', {
      uri, from: startLine + 1, to: endLine, tier: 'line', session: 'bench', format: 'text',
    });
    if (r.status && r.status !== 'ok') throw new Error(`hashline/read refused: ${JSON.stringify(r.error ?? r)}`);
    // The rows as an agent sees them, "LINE:LLL→text" joined by "\n" (one string in the reply,
    // as the peers send), become the driver's "LINE:LLL|text".
    const lines = r.text === '' ? [] : r.text.split('\n').map((row) => {
      const arrow = row.indexOf('\u2192');
      return `${row.slice(0, arrow)}|${row.slice(arrow + 1)}`;
    });
    // The window reaches past hashline's last line: the driver expects the phantom LSP line.
    if (endLine > r.lineCount && startLine <= r.lineCount) {
      emptyLineDigest ??= await learnEmptyLineDigest(conn);
      lines.push(`${r.lineCount + 1}:${emptyLineDigest}|`);
    }
    return { version: r.version, lines };
  },
};
