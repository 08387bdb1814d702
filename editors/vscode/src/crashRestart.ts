// What the language client does when `hashline lsp` dies (issue 31): the ErrorHandler it is given.
// An unexpected close (kill -9, a crash, the OOM killer; a stop we asked for never gets here) is
// answered with a restart: vscode-languageclient then starts the server again and re-sends didOpen
// for every open document with its current text and version, so the new sidecar mirrors the
// unsaved buffers. The user is told once per crash window, not on every restart; after
// `maxCrashes` crashes within `windowMs` it gives up with an error naming "hashline: Restart
// Server", which starts it by hand (and starts the count over). The counts feed the status item.
import { CloseAction, CloseHandlerResult, ErrorAction, ErrorHandler, ErrorHandlerResult } from 'vscode-languageclient/node';

export const crashLimit = { maxCrashes: 5, windowMs: 60_000 };

export class CrashRestart implements ErrorHandler {
  private recent: number[] = [];
  private toldAt: number | undefined;
  // Crashes seen, restarts asked for, and why it gave up (undefined while it has not).
  crashes = 0;
  restarts = 0;
  gaveUp: string | undefined;

  constructor(private readonly log: (line: string) => void) {}

  error(error: Error): ErrorHandlerResult {
    // A write to a server that just died (EPIPE: the user typed, a didChange went out) comes
    // before the close. The library's default answers Shutdown there (its count is undefined for
    // write errors), which stops the client for good instead of restarting it (found by the
    // code-server chaos part). Keep going: the close that follows decides (closed() below).
    this.log(`[hashline] connection error: ${error.message}; waiting for the server's exit`);
    return { action: ErrorAction.Continue, handled: true };
  }

  closed(): CloseHandlerResult {
    const now = Date.now();
    this.crashes++;
    this.recent = this.recent.filter((t) => now - t < crashLimit.windowMs);
    this.recent.push(now);
    if (this.recent.length >= crashLimit.maxCrashes) {
      this.gaveUp = `${this.recent.length} crashes within ${crashLimit.windowMs / 1000} s`;
      this.log(`[hashline] the server crashed; ${this.gaveUp}: not restarting it again`);
      return {
        action: CloseAction.DoNotRestart,
        message:
          `hashline: the sidecar had ${this.gaveUp}; not restarting it again. ` +
          'Run "hashline: Restart Server" to start it; the hashline output channel shows why it stopped.',
      };
    }
    this.restarts++;
    const quiet = this.toldAt !== undefined && now - this.toldAt < crashLimit.windowMs;
    if (!quiet) this.toldAt = now;
    this.log(`[hashline] the server stopped unexpectedly (crash ${this.crashes}); restarting it`);
    return {
      action: CloseAction.Restart,
      message: 'hashline: the sidecar stopped unexpectedly; restarting it and re-opening the documents.',
      handled: quiet, // handled = already told: logged, no second notification
    };
  }

  // A restart by hand ("hashline: Restart Server", a settings change): the count starts over.
  reset(): void {
    this.recent = [];
    this.toldAt = undefined;
    this.gaveUp = undefined;
  }
}
