// The Markdown of a pending hunk's hover: what it replaced as a diff block, a long side folded. A
// side (removed or written lines) longer than `hoverOpenLines` shows its first lines and keeps
// the rest in a `<details>` block, `N more removed lines` (VS Code's Markdown renderer allows
// details/summary when the MarkdownString has `supportHtml`): folded, never cut, and the hover
// does not scroll. Pure; no vscode import. Used by reviewDecorations.ts, tested by
// test/reviewHover.test.ts.
import { PendingHunk, splitLines } from './review';

// The lines of each side shown open; the same default as Neovim's `review_removed_max`.
export const hoverOpenLines = 8;

// A Markdown code fence that no line of `text` can close: one backtick more than its longest run.
export function fenced(text: string, language: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

// `text` as literal Markdown text, HTML included: every ASCII punctuation mark backslash-escaped
// (CommonMark), so an agent's name can neither format the hover nor inject a tag.
export function markdownText(text: string): string {
  return text.replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

// One side of the diff (`-` or `+` lines): its first `max` lines in a ```diff block, the rest in a
// folded `<details>` block whose summary counts them. Empty for no lines.
function side(lines: string[], word: string, max: number): string[] {
  if (lines.length === 0) return [];
  const open = [fenced(lines.slice(0, max).join('\n'), 'diff')];
  const rest = lines.length - max;
  if (rest <= 0) return open;
  const summary = `${rest} more ${word} line${rest === 1 ? '' : 's'}`;
  // Blank lines around the fence end the HTML blocks, so the fence inside is Markdown.
  return [...open, `<details><summary>${summary}</summary>\n\n${fenced(lines.slice(max).join('\n'), 'diff')}\n\n</details>`];
}

// The hunk's removed lines (`- `) and written ones (`+ `): one ```diff block while each side has
// at most `max` lines; else one block per side, each folded past its first `max` lines.
export function hunkDiffMarkdown(h: PendingHunk, max = hoverOpenLines): string {
  const removed = splitLines(h.before).map((l) => `- ${l}`);
  const added = splitLines(h.after).map((l) => `+ ${l}`);
  if (removed.length <= max && added.length <= max) return fenced([...removed, ...added].join('\n'), 'diff');
  return [...side(removed, 'removed', max), ...side(added, 'written', max)].join('\n\n');
}
