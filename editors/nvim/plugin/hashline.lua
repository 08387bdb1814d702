-- Defines the :Hashline* user commands; the plugin's modules load on first use. Nothing starts
-- until require('hashline').setup{} is called (see :help hashline).
if vim.g.loaded_hashline then
  return
end
vim.g.loaded_hashline = 1
if vim.fn.has('nvim-0.7') ~= 1 then
  return
end

local function define(name, fn, opts)
  opts.force = true
  vim.api.nvim_create_user_command(name, function(args)
    require('hashline.commands')[fn](args)
  end, opts)
end

define('HashlineStatus', 'status', { nargs = 0, desc = 'hashline: sidecar status for this buffer' })
define('HashlineLog', 'log', { nargs = '?', desc = 'hashline: journal of agent edits ([N] or all)' })
define('HashlineUndo', 'undo', { nargs = '?', desc = 'hashline: undo the last agent edit ([op id])' })
define('HashlineAttach', 'attach', { nargs = 0, desc = 'hashline: attach the sidecar to this buffer' })
define('HashlineRestart', 'restart', { nargs = 0, desc = 'hashline: restart the sidecar and re-attach its buffers' })
define('HashlineReview', 'review', { nargs = 0, desc = 'hashline: pending agent hunks in the quickfix list' })
define('HashlineAccept', 'accept', { nargs = '?', desc = 'hashline: accept a pending agent hunk ([op#k or op])' })
define('HashlineReject', 'reject', { nargs = '?', desc = 'hashline: reject a pending agent hunk ([op#k or op])' })
for name, spec in pairs({
  HashlineDiff = { 'diff_command', { nargs = '?', desc = 'hashline: diff of a pending agent edit, before and now ([op#k or op])' } },
  HashlineRemoved = { 'removed_command', { nargs = '?', complete = function() return { 'on', 'off', 'toggle', 'folded', 'all' } end,
    desc = 'hashline: the lines agents removed, shown at their hunks (on, off, toggle, folded, all)' } },
}) do
  spec[2].force = true
  vim.api.nvim_create_user_command(name, function(args)
    require('hashline.review')[spec[1]](args)
  end, spec[2])
end
define('HashlineSendToClaude', 'send_to_claude', { range = true, desc = 'hashline: send the lines to Claude Code as an at-mention' })
define('HashlineConflicts', 'conflicts', { nargs = 0, desc = 'hashline: disk writes kept out of buffers (both sides)' })
define('HashlineResolve', 'resolve', { nargs = '+', desc = 'hashline: take a conflict\'s disk side ({id} theirs) or keep yours ({id} ours)' })
