// Unit tests of lspShapes.ts: VS Code's diagnostics (severity, code, bounds), selections and
// document symbols (kinds, both provider shapes) in the LSP shapes the sidecar reads.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CodeDiagnostic,
  CodeSymbol,
  contextParams,
  lspCode,
  lspDiagnostic,
  lspDiagnostics,
  lspDocumentSymbols,
  lspSeverity,
  lspSymbolKind,
  maxDiagnostics,
  maxMessageChars,
} from '../src/lspShapes';

const range = (l1: number, c1: number, l2: number, c2: number) => ({
  start: { line: l1, character: c1 },
  end: { line: l2, character: c2 },
});

test('VS Code severities (Error 0 … Hint 3) become LSP severities (1 … 4)', () => {
  assert.equal(lspSeverity(0), 1);
  assert.equal(lspSeverity(1), 2);
  assert.equal(lspSeverity(2), 3);
  assert.equal(lspSeverity(3), 4);
  assert.equal(lspSeverity(undefined), undefined);
  assert.equal(lspSeverity(4), undefined);
  assert.equal(lspSeverity(-1), undefined);
  assert.equal(lspSeverity(1.5), undefined);
});

test('a diagnostic code: string and number as they are, {value, target} as its value', () => {
  assert.equal(lspCode('E1'), 'E1');
  assert.equal(lspCode(2322), 2322);
  assert.equal(lspCode({ value: 'no-unused-vars', target: { scheme: 'https' } }), 'no-unused-vars');
  assert.equal(lspCode({ value: 7 }), 7);
  assert.equal(lspCode(undefined), undefined);
});

test('one diagnostic in LSP shape: 0-based range copied, fields left out when VS Code has none', () => {
  const d: CodeDiagnostic = {
    range: range(2, 6, 2, 7),
    severity: 0,
    source: 'ts',
    code: { value: 2322, target: 'https://example.invalid' },
    message: "Type 'string' is not assignable to type 'number'.",
  };
  assert.deepEqual(lspDiagnostic(d), {
    range: range(2, 6, 2, 7),
    severity: 1,
    source: 'ts',
    code: 2322,
    message: "Type 'string' is not assignable to type 'number'.",
  });
  assert.deepEqual(lspDiagnostic({ range: range(0, 0, 0, 0), message: 'm', source: '' }), {
    range: range(0, 0, 0, 0),
    message: 'm',
  });
  // the range is a copy (VS Code's Range objects carry more than line/character)
  const rich = { start: { line: 1, character: 2, extra: true }, end: { line: 1, character: 3, extra: true } };
  assert.deepEqual(lspDiagnostic({ range: rich, message: 'x' }).range, range(1, 2, 1, 3));
});

test('a document\'s diagnostics: errors first then by position, empty messages dropped, bounded', () => {
  const out = lspDiagnostics([
    { range: range(9, 0, 9, 1), severity: 3, message: 'hint' },
    { range: range(5, 4, 5, 5), severity: 0, message: 'late error' },
    { range: range(5, 1, 5, 2), severity: 0, message: 'early error' },
    { range: range(1, 0, 1, 1), severity: 1, message: 'warning' },
    { range: range(0, 0, 0, 1), severity: 0, message: '' },
  ]);
  assert.deepEqual(out.map((d) => d.message), ['early error', 'late error', 'warning', 'hint']);
  assert.deepEqual(out.map((d) => d.severity), [1, 1, 2, 4]);
  const many = Array.from({ length: maxDiagnostics + 5 }, (_, i) => ({ range: range(i, 0, i, 1), severity: 1, message: 'w' }));
  assert.equal(lspDiagnostics([...many, { range: range(0, 0, 0, 1), severity: 0, message: 'e' }]).length, maxDiagnostics);
  assert.equal(lspDiagnostics([...many, { range: range(0, 0, 0, 1), severity: 0, message: 'e' }])[0].message, 'e');
  assert.equal(lspDiagnostics([{ range: range(0, 0, 0, 1), message: 'y'.repeat(5000) }])[0].message.length, maxMessageChars);
});

test('context params: primary selection first, ranges ordered, no active editor → null', () => {
  const p = contextParams(
    { uri: 'file:///ws/a.ts', version: 4, selections: [range(4, 0, 2, 0), range(7, 3, 7, 3)] },
    [{ uri: 'file:///ws/a.ts', version: 4, ranges: [range(0, 0, 30, 0)] }],
  );
  assert.deepEqual(p, {
    active: { uri: 'file:///ws/a.ts', version: 4, selections: [range(2, 0, 4, 0), range(7, 3, 7, 3)] },
    visible: [{ uri: 'file:///ws/a.ts', version: 4, ranges: [range(0, 0, 30, 0)] }],
  });
  assert.deepEqual(contextParams(undefined, []), { active: null, visible: [] });
  const lots = Array.from({ length: 40 }, (_, i) => ({ uri: `file:///ws/${i}`, version: 1, ranges: [] }));
  assert.equal(contextParams(undefined, lots).visible.length, 32);
  // the same view gives the same JSON (the forwarder skips repeats by it)
  assert.equal(JSON.stringify(contextParams(undefined, lots)), JSON.stringify(contextParams(undefined, lots)));
});

test('VS Code symbol kinds (File 0 … TypeParameter 25) become LSP kinds (1 … 26)', () => {
  assert.equal(lspSymbolKind(0), 1); // File
  assert.equal(lspSymbolKind(4), 5); // Class
  assert.equal(lspSymbolKind(5), 6); // Method
  assert.equal(lspSymbolKind(11), 12); // Function
  assert.equal(lspSymbolKind(25), 26); // TypeParameter
  assert.equal(lspSymbolKind(26), 13);
  assert.equal(lspSymbolKind(-1), 13);
});

test('document symbols (as VS Code merges them with SymbolInformation) keep their tree', () => {
  const method: CodeSymbol = {
    name: 'area', detail: '', kind: 5, range: range(2, 2, 4, 3), selectionRange: range(2, 2, 2, 6), children: [],
    location: { range: range(2, 2, 4, 3) },
  };
  const cls: CodeSymbol = {
    name: 'Shape', detail: 'class', kind: 4, tags: [1], range: range(1, 0, 5, 1), selectionRange: range(1, 6, 1, 11),
    children: [method], location: { range: range(1, 0, 5, 1) },
  };
  assert.deepEqual(lspDocumentSymbols([cls]), [
    {
      name: 'Shape', detail: 'class', kind: 5, tags: [1], range: range(1, 0, 5, 1), selectionRange: range(1, 6, 1, 11),
      children: [{ name: 'area', kind: 6, range: range(2, 2, 4, 3), selectionRange: range(2, 2, 2, 6), children: [] }],
    },
  ]);
});

test('SymbolInformation only: range and selectionRange are the location\'s range, no children', () => {
  assert.deepEqual(lspDocumentSymbols([{ name: 'main', kind: 11, location: { range: range(7, 0, 9, 1) } }]), [
    { name: 'main', kind: 12, range: range(7, 0, 9, 1), selectionRange: range(7, 0, 9, 1), children: [] },
  ]);
  // an entry with no range at all is left out
  assert.deepEqual(lspDocumentSymbols([{ name: 'ghost', kind: 11 }]), []);
});
