// One log format for the **hashline** output channel: every line the extension or the language
// client writes gets the sidecar's own stamp, `HH:MM:SS.mmm level message` (UTC, the level padded
// to 5), so the extension's lines and the server's stderr read as one log. The client's
// `[Info - 3:04:05 PM] …` lines and the extension's old `[hashline] ` prefix are rewritten into
// it. Pure except StampedChannel, which wraps a vscode.OutputChannel; tested by
// test/logLine.test.ts.
import type * as vscode from 'vscode';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

// `15:04:05.012` in UTC, as the sidecar writes it (lsp/support/log.cpp).
export function logStamp(now: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(now.getUTCHours())}:${two(now.getUTCMinutes())}:${two(now.getUTCSeconds())}.${String(now.getUTCMilliseconds()).padStart(3, '0')}`;
}

const stamped = /^\d\d:\d\d:\d\d\.\d\d\d (error|warn |info |debug) /;
const clientLine = /^\[(Trace|Debug|Info|Warn|Error) +- [^\]]*\] ?/;

// `line` in the one format. A line already stamped (the server's) is left as it is.
export function formatLogLine(line: string, now: Date, level: LogLevel = 'info'): string {
  if (stamped.test(line)) return line;
  let text = line.replace(/^\[hashline\] /, '');
  const client = clientLine.exec(text);
  if (client) {
    const named = client[1].toLowerCase();
    level = named === 'trace' ? 'debug' : (named as LogLevel);
    text = text.slice(client[0].length);
  }
  return `${logStamp(now)} ${level.padEnd(5)} ${text}`;
}

// An output channel whose appendLine writes the one format; `append` (the server's stderr, already
// stamped by the sidecar) passes through.
export class StampedChannel implements vscode.OutputChannel {
  constructor(private readonly channel: vscode.OutputChannel) {}

  get name(): string {
    return this.channel.name;
  }
  append(value: string): void {
    this.channel.append(value);
  }
  appendLine(value: string): void {
    this.channel.appendLine(formatLogLine(value, new Date()));
  }
  replace(value: string): void {
    this.channel.replace(value);
  }
  clear(): void {
    this.channel.clear();
  }
  show(columnOrPreserve?: vscode.ViewColumn | boolean, preserveFocus?: boolean): void {
    if (typeof columnOrPreserve === 'boolean' || columnOrPreserve === undefined) this.channel.show(columnOrPreserve);
    else this.channel.show(columnOrPreserve, preserveFocus);
  }
  hide(): void {
    this.channel.hide();
  }
  dispose(): void {
    this.channel.dispose();
  }
}
