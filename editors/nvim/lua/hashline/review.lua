-- Review of agent edits in the editor (issues 9 and 34): signs on the pending (unreviewed) agent
-- hunks of each attached buffer, the lines each hunk removed or replaced shown above it as virtual
-- lines (extmark virt_lines, DiffDelete; long ones folded to `review_removed_max` lines until
-- :HashlineRemoved all), :HashlineDiff opening a diff of a hunk or an op (the text before it ↔ the
-- live buffer), the :HashlineReview quickfix list (`claude · +2 −4 · first line (op#k)`) with its
-- accept/reject mappings, and accept/reject of the hunk under the cursor, reported in words
-- ("Rejected claude's edit in app.py (lines 12–13)"). Everything comes from the sidecar's
-- hashline.pending (which carries each hunk's before and after text), hashline.accept and
-- hashline.reject; signs and virtual lines refresh asynchronously (after server edits, after
-- accept/reject, and on a debounce after the user's typing), so a review never blocks typing.
-- Uses sign_define/sign_place and virt_lines (Neovim 0.6+). Main loop only.
local config = require('hashline.config')
local request = require('hashline.request')
local attach = require('hashline.attach')
local compat = require('hashline.compat')

local M = {}

M.sign_group = 'hashline_review'
M.sign_name = 'HashlinePending'
M.qf_title = 'hashline review'
-- The namespace of the removed lines' virtual lines.
M.removed_ns = vim.api.nvim_create_namespace('hashline_review_removed')

-- bufnr -> { hunks = {pending hunk tables of this buffer}, timer = uv timer, watching = bool }
local state = {}
local defined = false
-- How the removed lines show: nil = as config says ('folded' when review_removed is on),
-- 'off', 'folded' (up to review_removed_max lines each) or 'all'.
local removed_mode = nil
-- id -> { hunk = ..., name = file name } of the hunks last fetched, for messages in words.
local known = {}

local function notify(msg, level)
  vim.notify('hashline: ' .. msg, level or vim.log.levels.INFO)
end

local function define_sign()
  if defined then
    return
  end
  defined = true
  local cfg = config.get()
  vim.fn.sign_define(M.sign_name, { text = cfg.review_sign_text or '▎', texthl = 'DiffChange' })
end

local function buf_state(bufnr)
  local s = state[bufnr]
  if not s then
    s = { hunks = {} }
    state[bufnr] = s
  end
  return s
end

-- Any buffer with a hashline client: the one to send a workspace-wide request through.
local function attached_buf(preferred)
  if preferred and vim.api.nvim_buf_is_valid(preferred) and attach.client_of(preferred) then
    return preferred
  end
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and attach.client_of(bufnr) then
      return bufnr
    end
  end
  return nil
end

local function buffer_of_uri(uri)
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.uri_from_bufnr(bufnr) == uri then
      return bufnr
    end
  end
  return nil
end

-- Who made a hunk: the agent's name (else the method, else "agent").
local function agent_of(hunk)
  if type(hunk.agent) == 'string' and hunk.agent ~= '' then
    return hunk.agent
  end
  if type(hunk.method) == 'string' and hunk.method ~= '' then
    return hunk.method
  end
  return 'agent'
end
M.agent_of = agent_of

-- `+2 −4`
local function counts(hunk)
  local parts = {}
  if (tonumber(hunk.lines) or 0) > 0 then
    table.insert(parts, '+' .. tostring(hunk.lines))
  end
  if (tonumber(hunk.removedLines) or 0) > 0 then
    table.insert(parts, '−' .. tostring(hunk.removedLines))
  end
  return table.concat(parts, ' ')
end

-- `line 12`, `lines 12–13`, or `changed since`.
local function where(hunk)
  if type(hunk.line) ~= 'number' then
    return 'changed since'
  end
  local count = math.max(tonumber(hunk.lines) or 1, 1)
  if count == 1 then
    return 'line ' .. hunk.line
  end
  return string.format('lines %d–%d', hunk.line, hunk.line + count - 1)
end
M.where = where

-- The lines of a hunk's before/after text (terminators dropped).
local function text_lines(text)
  if type(text) ~= 'string' or text == '' then
    return {}
  end
  local out = vim.split(text, '\n', { plain = true })
  if out[#out] == '' then
    table.remove(out)
  end
  for i, line in ipairs(out) do
    out[i] = line:gsub('\r$', '')
  end
  return out
end
M.text_lines = text_lines

-- One line about a hunk, as a person reads it: `claude · +2 −4 · first written line` (or
-- `removed: first removed line`), the text as written (no quoting, no escaping), shortened.
local function summary(hunk)
  local function first_line(text)
    for _, line in ipairs(text_lines(text)) do
      if line:match('%S') then
        return vim.trim(line)
      end
    end
    return nil
  end
  local what = first_line(hunk.after)
  if not what and first_line(hunk.before) then
    what = 'removed: ' .. first_line(hunk.before)
  end
  if what and vim.fn.strchars(what) > 60 then
    what = vim.fn.strcharpart(what, 0, 59) .. '…'
  end
  local head = agent_of(hunk)
  local c = counts(hunk)
  if c ~= '' then
    head = head .. ' · ' .. c
  end
  return what and (head .. ' · ' .. what) or head
end
M.summary = summary

-- Places one sign per pending hunk of `bufnr`, at the line where the hunk is now.
local function place_signs(bufnr, hunks)
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  define_sign()
  vim.fn.sign_unplace(M.sign_group, { buffer = bufnr })
  if config.get().review_signs == false then
    return
  end
  local count = vim.api.nvim_buf_line_count(bufnr)
  for _, hunk in ipairs(hunks) do
    if type(hunk.line) == 'number' then
      local lnum = math.max(1, math.min(hunk.line, count))
      vim.fn.sign_place(0, M.sign_group, M.sign_name, bufnr, { lnum = lnum, priority = 8 })
    end
  end
end

-- Keeps each listed hunk and its file's name, for messages in words.
local function remember(result)
  for _, file in ipairs(result.files or {}) do
    for _, hunk in ipairs(file.hunks or {}) do
      known[hunk.id] = { hunk = hunk, name = file.name }
    end
  end
end

-- How removed lines show now: 'off', 'folded' or 'all'.
function M.removed_mode()
  if removed_mode then
    return removed_mode
  end
  return config.get().review_removed == false and 'off' or 'folded'
end

-- A removed line as a virtual line: tabs expanded (virtual text shows them raw), in DiffDelete.
local function removed_line(text, tabstop)
  return { { '- ' .. text:gsub('\t', string.rep(' ', tabstop)), 'DiffDelete' } }
end

-- The virtual lines of `hunk`: the lines it removed or replaced, up to `max` of them then one
-- line saying how many more there are (mode 'folded'), or all of them.
function M.removed_virt_lines(hunk, mode, max, tabstop)
  local removed = text_lines(hunk.before)
  local out = {}
  local shown = #removed
  if mode == 'folded' and #removed > max then
    shown = math.max(max - 1, 1)
  end
  for i = 1, shown do
    table.insert(out, removed_line(removed[i], tabstop or 8))
  end
  if shown < #removed then
    table.insert(out, { { string.format('  … %d more removed lines of %s · %s (:HashlineRemoved all, :HashlineDiff %s)',
      #removed - shown, agent_of(hunk), where(hunk), tostring(hunk.id)), 'DiffDelete' } })
  end
  return out
end

-- Shows above each pending hunk of `bufnr` the lines it removed or replaced (virt_lines).
local function place_removed(bufnr, hunks)
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return
  end
  vim.api.nvim_buf_clear_namespace(bufnr, M.removed_ns, 0, -1)
  local mode = M.removed_mode()
  if mode == 'off' then
    return
  end
  local count = vim.api.nvim_buf_line_count(bufnr)
  local max = config.get().review_removed_max or 8
  local tabstop = vim.bo[bufnr].tabstop
  for _, hunk in ipairs(hunks) do
    if type(hunk.line) == 'number' and (tonumber(hunk.removedLines) or 0) > 0 then
      local virt = M.removed_virt_lines(hunk, mode, max, tabstop)
      -- Above the hunk's first line; a deletion at the very end goes below the last line.
      local above = hunk.line <= count
      local row = math.max(math.min(hunk.line, count), 1) - 1
      vim.api.nvim_buf_set_extmark(bufnr, M.removed_ns, row, 0, {
        virt_lines = virt,
        virt_lines_above = above,
      })
    end
  end
end

-- The removed lines' extmarks of `bufnr`: { { row = 0-based, lines = { 'text', ... } } } (tests,
-- and whoever wants to read them).
function M.removed_marks(bufnr)
  local out = {}
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(bufnr, M.removed_ns, 0, -1, { details = true })) do
    local lines = {}
    for _, chunks in ipairs(mark[4].virt_lines or {}) do
      local text = ''
      for _, chunk in ipairs(chunks) do
        text = text .. chunk[1]
      end
      table.insert(lines, text)
    end
    table.insert(out, { row = mark[2], above = mark[4].virt_lines_above == true, lines = lines,
      hl = mark[4].virt_lines and mark[4].virt_lines[1] and mark[4].virt_lines[1][1][2] })
  end
  return out
end

-- hashline.pending for `bufnr` (opts.all: the whole workspace). Asynchronous with opts.callback,
-- else waits like every API call. Returns the server's result: {status, count, files = {{name,
-- uri, path?, backend, hunks = {{id, op, line, lines, removedLines, before, after, ...}}}}}.
function M.pending(opts)
  opts = opts or {}
  local bufnr = opts.bufnr
  if bufnr == nil or bufnr == 0 then
    bufnr = vim.api.nvim_get_current_buf()
  end
  local params = {}
  local via = bufnr
  if opts.all then
    via = attached_buf(bufnr)
    if not via then
      local err = { code = request.NO_CLIENT, message = 'no buffer has a hashline client' }
      if opts.callback then
        opts.callback(nil, err)
        return true
      end
      return nil, err
    end
  else
    params.uri = vim.uri_from_bufnr(bufnr)
  end
  if opts.session then
    params.session = opts.session
  end
  if opts.turn then
    params.turn = opts.turn
  end
  if next(params) == nil then
    params = vim.empty_dict() -- an object, not []
  end
  return request.command(via, 'hashline.pending', params, opts)
end

-- The pending hunks of `bufnr` as last fetched (for signs and the hunk under the cursor).
function M.hunks(bufnr)
  local s = state[bufnr]
  return s and s.hunks or {}
end

-- Fetches the pending hunks of `bufnr` and redraws its signs; never waits.
function M.refresh(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) or not attach.client_of(bufnr) then
    return
  end
  local s = buf_state(bufnr)
  s.generation = (s.generation or 0) + 1
  local generation = s.generation
  M.pending({ bufnr = bufnr, callback = function(result, _)
    if s.generation ~= generation or type(result) ~= 'table' or result.status ~= 'ok' then
      return
    end
    local hunks = {}
    for _, file in ipairs(result.files or {}) do
      for _, hunk in ipairs(file.hunks or {}) do
        table.insert(hunks, hunk)
      end
    end
    s.hunks = hunks
    remember(result)
    place_signs(bufnr, hunks)
    place_removed(bufnr, hunks)
    if M.on_refresh then
      M.on_refresh(bufnr, hunks)
    end
  end })
end

-- Refreshes `bufnr` after `delay` ms, once for a burst of calls.
function M.schedule_refresh(bufnr, delay)
  local s = buf_state(bufnr)
  if not s.timer then
    s.timer = compat.uv.new_timer()
  end
  s.timer:stop()
  s.timer:start(delay or config.get().review_debounce, 0, vim.schedule_wrap(function()
    M.refresh(bufnr)
  end))
end

-- Every attached buffer, soon.
function M.refresh_all(delay)
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and attach.client_of(bufnr) then
      M.schedule_refresh(bufnr, delay or 0)
    end
  end
end

-- Starts watching `bufnr`: a debounced refresh after the user's changes, and a first one now.
function M.watch(bufnr)
  if config.get().review_signs == false then
    return
  end
  local s = buf_state(bufnr)
  if s.watching then
    return
  end
  s.watching = true
  vim.api.nvim_buf_attach(bufnr, false, {
    on_lines = function()
      if not s.watching then
        return true -- detach
      end
      M.schedule_refresh(bufnr)
    end,
    on_detach = function()
      s.watching = false
    end,
  })
  vim.api.nvim_create_autocmd('BufWipeout', compat.with_buf({
    once = true,
    callback = function()
      M.forget(bufnr)
    end,
  }, bufnr))
  M.schedule_refresh(bufnr, 0)
end

function M.forget(bufnr)
  local s = state[bufnr]
  if s then
    s.watching = false
    if s.timer then
      s.timer:stop()
      s.timer:close()
    end
    state[bufnr] = nil
  end
end

-- The pending hunk of `bufnr` that covers `lnum` (1-based), or the nearest one above it on the
-- same line as a deletion.
function M.hunk_at(bufnr, lnum)
  for _, hunk in ipairs(M.hunks(bufnr)) do
    if type(hunk.line) == 'number' then
      local last = hunk.line + math.max((hunk.lines or 1), 1) - 1
      if lnum >= hunk.line and lnum <= last then
        return hunk
      end
    end
  end
  return nil
end

-- The review list's hunk ids by quickfix index, if the current quickfix list is ours.
local function qf_ids()
  local info = vim.fn.getqflist({ title = 1, context = 1 })
  local ctx = info.context
  if type(ctx) == 'table' and type(ctx.hashline_ids) == 'table' then
    return ctx.hashline_ids
  end
  return nil
end

-- The hunk id meant by a command without an id: the entry under the cursor in the review list,
-- else the pending hunk under the cursor (fetched now, so it is current).
function M.current_id()
  local bufnr = vim.api.nvim_get_current_buf()
  if vim.bo[bufnr].buftype == 'quickfix' then
    local ids = qf_ids()
    return ids and ids[vim.fn.line('.')] or nil
  end
  local lnum = vim.fn.line('.')
  local result = M.pending({ bufnr = bufnr })
  if type(result) == 'table' and result.status == 'ok' then
    local hunks = {}
    for _, file in ipairs(result.files or {}) do
      for _, hunk in ipairs(file.hunks or {}) do
        table.insert(hunks, hunk)
      end
    end
    buf_state(bufnr).hunks = hunks
    remember(result)
  end
  local hunk = M.hunk_at(bufnr, lnum)
  return hunk and hunk.id or nil
end

local function op_of(id)
  return (tostring(id):gsub('#.*$', ''))
end

-- Sends accept/reject of `id` (a hunk op#k or an op). Returns the result or nil, err.
local function decide(kind, id, opts)
  opts = opts or {}
  if id == nil then
    id = M.current_id()
    if id == nil then
      return nil, { code = 'NOT_FOUND', message = 'no pending agent hunk under the cursor' }
    end
  end
  id = tostring(id)
  local via = attached_buf(opts.bufnr)
  if not via then
    return nil, { code = request.NO_CLIENT, message = 'no buffer has a hashline client' }
  end
  local params = {}
  if kind == 'accept' and not id:find('#', 1, true) then
    params.op = id
  else
    params.hunk = id
  end
  if opts.confirm ~= nil and kind == 'reject' then
    params.confirm = opts.confirm
  end
  local function after(result, err)
    M.refresh_all(0)
    if vim.bo.buftype == 'quickfix' and qf_ids() then
      M.fill_quickfix({ keep_position = true })
    end
    return result, err
  end
  if opts.callback then
    local callback = opts.callback
    return request.command(via, 'hashline.' .. kind, params, { timeout = opts.timeout, callback = function(r, e)
      callback(after(r, e))
    end })
  end
  return after(request.command(via, 'hashline.' .. kind, params, opts))
end

-- accept(id?, opts?): marks a hunk (op#k) or a whole op reviewed; id defaults to the hunk under
-- the cursor. reject(id?, opts?): reverses a hunk or a whole op in the buffer (CONFLICT when the
-- user changed its lines). Both refresh the signs and the review list.
function M.accept(id, opts)
  return decide('accept', id, opts)
end

function M.reject(id, opts)
  return decide('reject', id, opts)
end

-- Fills the quickfix list with every pending hunk of the workspace: file, current line,
-- `claude · +2 −4 · first line (op#k)`. Returns the number of entries, or nil, err.
function M.fill_quickfix(opts)
  opts = opts or {}
  local result, err = M.pending({ all = true })
  if not result then
    return nil, err
  end
  if result.status ~= 'ok' then
    return nil, result.error
  end
  local items, ids = {}, {}
  for _, file in ipairs(result.files or {}) do
    local fname = file.path or (file.uri and vim.uri_to_fname(file.uri)) or file.name
    local bufnr = file.uri and buffer_of_uri(file.uri)
    for _, hunk in ipairs(file.hunks or {}) do
      known[hunk.id] = { hunk = hunk, name = file.name }
      -- The id last, for :HashlineAccept / :HashlineReject / :HashlineDiff.
      local text = string.format('%s (%s)', summary(hunk), tostring(hunk.id))
      if hunk.changedSince then
        text = text .. ' (changed since)'
      end
      local item = { filename = fname, lnum = type(hunk.line) == 'number' and hunk.line or 1, col = 1, text = text }
      if bufnr then
        item.bufnr = bufnr
        item.filename = nil
      end
      table.insert(items, item)
      table.insert(ids, hunk.id)
    end
  end
  local position = opts.keep_position and vim.fn.getqflist({ idx = 0 }).idx or 1
  local what = { title = M.qf_title, items = items, context = { hashline_ids = ids } }
  if opts.keep_position and qf_ids() then
    vim.fn.setqflist({}, 'r', what)
    if #items > 0 then
      vim.fn.setqflist({}, 'a', { idx = math.min(position, #items) })
    end
  else
    vim.fn.setqflist({}, ' ', what)
  end
  return #items
end

-- The quickfix window's buffer-local mappings (see :help hashline-review).
local function map_quickfix()
  local qfwin = vim.fn.getqflist({ winid = 0 }).winid
  if not qfwin or qfwin == 0 then
    return
  end
  local qfbuf = vim.api.nvim_win_get_buf(qfwin)
  local function act(kind, whole_op)
    return function()
      local ids = qf_ids()
      if not ids then
        return notify('this quickfix list is not the hashline review', vim.log.levels.WARN)
      end
      local id = ids[vim.fn.line('.')]
      if not id then
        return
      end
      if whole_op then
        id = op_of(id)
      end
      -- the user decides here: no second confirmation of their own reject
      local result, err = decide(kind, id, { confirm = false })
      M.report(kind, id, result, err)
    end
  end
  local maps = { a = { 'accept', false }, r = { 'reject', false }, A = { 'accept', true }, R = { 'reject', true } }
  for key, spec in pairs(maps) do
    vim.keymap.set('n', key, act(spec[1], spec[2]), compat.with_buf({ nowait = true,
      desc = 'hashline: ' .. spec[1] .. (spec[2] and ' the whole op' or ' this hunk') }, qfbuf))
  end
end

-- What a decision did, in words: "Rejected claude's edit in app.py (lines 12–13)"; for a whole op
-- or a hunk not fetched before, "Rejected op 12" / "Kept 12#2".
function M.decision_message(kind, id, done)
  local verb = kind == 'accept' and 'Kept' or 'Rejected'
  local seen = known[tostring(id)]
  if seen then
    return string.format("%s %s's edit in %s (%s)", verb, agent_of(seen.hunk), seen.name, where(seen.hunk))
  end
  -- A whole op: its hunks as last fetched.
  local hunks, name = 0, nil
  for _, entry in pairs(known) do
    if tostring(entry.hunk.op) == tostring(id) then
      hunks, name, seen = hunks + 1, entry.name, entry
    end
  end
  if seen then
    return string.format("%s %s's edit in %s (%d hunk%s)", verb, agent_of(seen.hunk), name, hunks,
      hunks == 1 and '' or 's')
  end
  local what = type(done) == 'table' and #done > 0 and table.concat(done, ', ') or tostring(id)
  if not what:find('#', 1, true) then
    what = 'op ' .. what
  end
  return verb .. ' ' .. what
end

-- Shows the outcome of accept/reject as one message.
function M.report(kind, id, result, err)
  if not result then
    return notify(kind .. ' ' .. tostring(id) .. ' failed: ' .. tostring(err and err.message), vim.log.levels.ERROR)
  end
  if result.status == 'refused' then
    local e = result.error or {}
    return notify(string.format('%s %s refused: %s: %s', kind, tostring(id), tostring(e.code), tostring(e.message)),
      vim.log.levels.WARN)
  end
  vim.notify(M.decision_message(kind, id, result.accepted or result.reverted), vim.log.levels.INFO)
end

-- :HashlineReview — the quickfix list of pending hunks, opened, with the mappings.
function M.review_command()
  local count, err = M.fill_quickfix()
  if not count then
    return notify('review failed: ' .. tostring(err and err.message), vim.log.levels.ERROR)
  end
  if count == 0 then
    notify('no pending agent edits')
  end
  vim.cmd('copen')
  map_quickfix()
  return count
end

-- :HashlineAccept [id] / :HashlineReject [id]
function M.decide_command(kind, args)
  local id = args and args.args ~= '' and args.args or M.current_id()
  local result, err = decide(kind, id, { confirm = false })
  M.report(kind, id or 'the hunk under the cursor', result, err)
  return result
end

-- The lines of a buffer before `hunks` (placed at their current lines): each hunk's written
-- lines replaced by the lines it removed.
function M.text_before(lines, hunks)
  local out = vim.list_extend({}, lines)
  local placed = {}
  for _, hunk in ipairs(hunks) do
    if type(hunk.line) == 'number' then
      table.insert(placed, hunk)
    end
  end
  table.sort(placed, function(a, b) return a.line > b.line end)
  for _, hunk in ipairs(placed) do
    local start = math.min(math.max(hunk.line, 1), #out + 1)
    for _ = 1, math.min(tonumber(hunk.lines) or 0, #out - start + 1) do
      table.remove(out, start)
    end
    for i, line in ipairs(text_lines(hunk.before)) do
      table.insert(out, start + i - 1, line)
    end
  end
  return out
end

-- The buffer of a pending file entry (loaded when it is not).
local function buffer_of_file(file)
  local bufnr = file.uri and buffer_of_uri(file.uri)
  if bufnr then
    return bufnr
  end
  local name = file.path or (file.uri and vim.uri_to_fname(file.uri))
  if not name then
    return nil
  end
  bufnr = vim.fn.bufadd(name)
  vim.fn.bufload(bufnr)
  return bufnr
end

-- diff(id?, opts?): opens a new tab with the text before the hunk `id` (op#k) — or every pending
-- hunk of the op `id`, or without an id the hunk under the cursor, else every pending hunk of the
-- current buffer — on the left (a read-only scratch buffer) and the live buffer on the right, both
-- in diff mode. Returns { before = bufnr, after = bufnr, hunks = {...} } or nil, err.
function M.diff(id, opts)
  opts = opts or {}
  local current = vim.api.nvim_get_current_buf()
  local target_buf, hunks, name
  if id == nil or id == '' then
    id = M.current_id()
  end
  if id == nil then
    local result = M.pending({ bufnr = current })
    if type(result) ~= 'table' or result.status ~= 'ok' or not result.files or not result.files[1] then
      return nil, { code = 'NOT_FOUND', message = 'no pending agent edit in this buffer' }
    end
    target_buf, hunks, name = current, result.files[1].hunks, result.files[1].name
  else
    id = tostring(id)
    local result, err = M.pending({ all = true, bufnr = current })
    if type(result) ~= 'table' or result.status ~= 'ok' then
      return nil, err or (result and result.error)
    end
    local whole_op = not id:find('#', 1, true)
    for _, file in ipairs(result.files or {}) do
      local matching = {}
      for _, hunk in ipairs(file.hunks or {}) do
        if (whole_op and tostring(hunk.op) == id) or hunk.id == id then
          table.insert(matching, hunk)
        end
      end
      if #matching > 0 then
        target_buf, hunks, name = buffer_of_file(file), matching, file.name
        break
      end
    end
    if not target_buf then
      return nil, { code = 'NOT_FOUND', message = 'no pending agent edit ' .. id }
    end
  end
  local before = M.text_before(vim.api.nvim_buf_get_lines(target_buf, 0, -1, false), hunks)
  local agents, seen = {}, {}
  for _, hunk in ipairs(hunks) do
    local who = agent_of(hunk)
    if not seen[who] then
      seen[who] = true
      table.insert(agents, who)
    end
  end
  vim.cmd('tabnew')
  local scratch = vim.api.nvim_get_current_buf()
  vim.bo[scratch].buftype = 'nofile'
  vim.bo[scratch].bufhidden = 'wipe'
  vim.bo[scratch].swapfile = false
  vim.api.nvim_buf_set_lines(scratch, 0, -1, false, before)
  vim.bo[scratch].modifiable = false
  vim.bo[scratch].filetype = vim.bo[target_buf].filetype
  pcall(vim.api.nvim_buf_set_name, scratch, string.format('hashline://before/%s (%s)', tostring(name),
    id or 'buffer'))
  vim.cmd('diffthis')
  vim.cmd('rightbelow vsplit')
  vim.api.nvim_win_set_buf(0, target_buf)
  vim.cmd('diffthis')
  local first
  for _, hunk in ipairs(hunks) do
    if type(hunk.line) == 'number' and (not first or hunk.line < first) then
      first = hunk.line
    end
  end
  if first then
    pcall(vim.api.nvim_win_set_cursor, 0, { math.min(first, vim.api.nvim_buf_line_count(target_buf)), 0 })
  end
  if not opts.quiet then
    notify(string.format("%s's edit%s in %s: before (left) and now (right)", table.concat(agents, ', '),
      #hunks > 1 and 's' or '', tostring(name)))
  end
  return { before = scratch, after = target_buf, hunks = hunks }
end

-- :HashlineDiff [op#k|op]
function M.diff_command(args)
  local id = args and args.args ~= '' and args.args or nil
  local opened, err = M.diff(id)
  if not opened then
    notify('diff: ' .. tostring(err and err.message), vim.log.levels.WARN)
  end
  return opened
end

-- set_removed(mode): 'on' (= 'folded'), 'folded', 'all', 'off' or 'toggle' (off ↔ folded); redraws
-- every attached buffer's virtual lines at once. Returns the mode now.
function M.set_removed(mode)
  local now = M.removed_mode()
  if mode == nil or mode == '' or mode == 'toggle' then
    mode = now == 'off' and 'folded' or 'off'
  elseif mode == 'on' then
    mode = 'folded'
  end
  if not vim.tbl_contains({ 'off', 'folded', 'all' }, mode) then
    error("hashline: :HashlineRemoved takes on, off, toggle, folded or all, got " .. vim.inspect(mode))
  end
  removed_mode = mode
  for bufnr, s in pairs(state) do
    if vim.api.nvim_buf_is_valid(bufnr) then
      place_removed(bufnr, s.hunks or {})
    end
  end
  return mode
end

-- :HashlineRemoved [on|off|toggle|folded|all]
function M.removed_command(args)
  local ok, mode = pcall(M.set_removed, args and args.args or nil)
  if not ok then
    return notify(tostring(mode), vim.log.levels.ERROR)
  end
  notify('removed lines: ' .. mode)
  return mode
end

return M
