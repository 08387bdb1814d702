// Unit tests of reviewHover.ts: a hunk's hover shows its removed and written lines as a diff
// block; a long side is folded past its first lines (details/summary), never cut; the fences
// cannot be closed by the text; the agent's name is escaped as Markdown and HTML.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PendingHunk } from '../src/review';
import { fenced, hoverOpenLines, hunkDiffMarkdown, markdownText } from '../src/reviewHover';

const hunk = (over: Partial<PendingHunk>): PendingHunk => ({
  id: '3#1', op: 3, lines: 2, removedLines: 1, before: 'old\n', after: 'new one\nnew two\n', line: 5, ...over,
});
const numbered = (word: string, n: number) => Array.from({ length: n }, (_, i) => `${word} ${i + 1}`).join('\n') + '\n';
const count = (s: string, part: string) => s.split(part).length - 1;

test('a short hunk is one diff block: the removed lines, then the written ones', () => {
  assert.equal(hunkDiffMarkdown(hunk({})), '```diff\n- old\n+ new one\n+ new two\n```');
  const edge = hunkDiffMarkdown(hunk({ before: numbered('old', hoverOpenLines), after: numbered('new', hoverOpenLines) }));
  assert.equal(count(edge, '<details>'), 0);
  assert.equal(count(edge, '```diff'), 1);
});

test('a long removal shows its first lines and folds the rest, every line once', () => {
  const md = hunkDiffMarkdown(hunk({ removedLines: 40, lines: 1, before: numbered('old', 40), after: 'new\n' }));
  const blocks = md.split('\n\n');
  assert.equal(blocks[0], fenced(numbered('old', 8).trimEnd().replace(/^/gm, '- '), 'diff'));
  assert.equal(blocks[1], '<details><summary>32 more removed lines</summary>');
  assert.ok(blocks[2].startsWith('```diff\n- old 9\n') && blocks[2].endsWith('- old 40\n```'), blocks[2]);
  assert.equal(blocks[3], '</details>');
  assert.equal(blocks[4], '```diff\n+ new\n```');
  assert.equal(blocks.length, 5);
  for (let i = 1; i <= 40; i++) assert.equal(count(md, `- old ${i}\n`), 1, `old ${i}`);
});

test('one line more than the open lines folds one line; a long written side folds too', () => {
  const one = hunkDiffMarkdown(hunk({ before: numbered('old', hoverOpenLines + 1) }));
  assert.ok(one.includes('<details><summary>1 more removed line</summary>'), one);
  const written = hunkDiffMarkdown(hunk({ before: '', removedLines: 0, lines: 12, after: numbered('new', 12) }), 5);
  assert.ok(written.startsWith('```diff\n+ new 1\n'), written);
  assert.ok(written.includes('<details><summary>7 more written lines</summary>\n\n```diff\n+ new 6\n'), written);
  assert.equal(count(written, '- '), 0);
});

test('the fences, folded or not, cannot be closed by the text', () => {
  const before = numbered('old', 10).replace('old 10', 'a ```` b');
  const md = hunkDiffMarkdown(hunk({ before }));
  assert.ok(md.includes('`````diff\n- old 9\n- a ```` b\n`````'), md);
  assert.equal(fenced('x', 'diff'), '```diff\nx\n```');
  assert.equal(fenced('a ``` b ````', 'diff'), '`````diff\na ``` b ````\n`````');
});

test('an agent name is text: neither Markdown nor HTML', () => {
  assert.equal(markdownText('<img src=x> **b** [l](u)'), '\\<img src\\=x\\> \\*\\*b\\*\\* \\[l\\]\\(u\\)');
  assert.equal(markdownText('claude \u00b7 +2 \u22124'), 'claude \u00b7 \\+2 \u22124');
});
