// What hashline's status bar item shows (statusItem.ts): the text, tooltip and click for the
// server's state and the number of agent edits waiting for review. Pure; tested by
// test/statusLook.test.ts.

export interface StatusLook {
  text: string;
  tooltip: string;
  command: string;
  warning: boolean;
}

export interface ServerState {
  running: boolean;
  restarting?: boolean; // coming back after a crash
  stopped?: boolean; // gave up after too many crashes
}

// What the status bar item shows for the server's state and the number of pending agent hunks.
export function statusLook(server: ServerState, pending: number, version?: string): StatusLook {
  if (!server.running && server.restarting)
    return {
      text: '$(sync~spin) hashline: restarting',
      tooltip: 'The hashline server stopped unexpectedly and is being restarted. Click for its log.',
      command: 'hashline.showLog',
      warning: true,
    };
  if (!server.running && server.stopped)
    return {
      text: '$(error) hashline: stopped',
      tooltip: 'The hashline server crashed too often and was not restarted. Click to restart it.',
      command: 'hashline.restartServer',
      warning: true,
    };
  if (!server.running)
    return {
      text: '$(warning) hashline: not running',
      tooltip: 'The hashline server is not running: agents cannot reach your unsaved buffers. Click for its log.',
      command: 'hashline.showLog',
      warning: true,
    };
  if (pending > 0)
    return {
      text: `$(diff) hashline: ${pending} pending`,
      tooltip: `${pending} agent edit${pending === 1 ? '' : 's'} waiting for review. Click to review them (before \u2194 now, \u2713 Keep, \u2717 Reject).`,
      command: 'hashline.reviewAgentEdits',
      warning: false,
    };
  return {
    text: '$(check) hashline',
    tooltip: `hashline mirrors your open buffers for agents${version ? ` (${version})` : ''}; no agent edit waits for review. Click for the status.`,
    command: 'hashline.showStatus',
    warning: false,
  };
}
