-- Each edit form racing a user who types in Neovim. Per form and round: the CLI reads the open,
-- unsaved buffer, then sends one edit (replace, headtail, range, patch, draft or ed) of one row
-- while a timer types every few ms: a new line at the top and a character at the end of the last
-- line, far from the row. Odd rounds start the typing at staggered moments (before the read, or
-- 0-160 ms after it), so it lands before the edit is verified, while it is applied, or after.
-- Even rounds start it the moment the edit reaches Neovim: one keystroke before the plugin's
-- handler sees it (the first attempt is always refused for its version), then the timer, while
-- the sidecar re-verifies and retries. Every round must end exactly as the model: all typing
-- kept, plus the edit on its row if the CLI said applied. A refusal must be STALE_VERSION,
-- STALE_ANCHOR, CONFLICT or EDITOR_REJECTED (retries exhausted) and change nothing; in even rounds
-- only EDITOR_REJECTED, and a landing must report more than one attempt. Runs with debounce 0 and
-- with a 40 ms debounce that holds the typing's didChange back.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/../neovim/common.lua')

local ROUNDS = tonumber(os.getenv('RACE_ROUNDS') or '') or 20
local TYPE_EVERY_MS = 3
-- When typing starts, relative to the end of the CLI read (negative: before the read).
local START_OFFSETS = { -40, 0, 10, 25, 40, 55, 70, 90, 120, 160 }
-- EDITOR_REJECTED: the buffer kept changing under every retry, the sidecar gave up.
local REFUSALS = { STALE_VERSION = true, STALE_ANCHOR = true, CONFLICT = true, EDITOR_REJECTED = true }
local ROWS = 70
local DEBOUNCES = vim.tbl_map(tonumber, vim.split(os.getenv('RACE_DEBOUNCES') or '0,40', ',', { trimempty = true }))

local function row(n)
  return string.format('row %02d: value %02d', n, n)
end

local function rel_of(form)
  return form .. '.txt'
end

-- The CLI arguments (and stdin) of one form's edit, turning `row(t)` into `new`. `view` is the
-- CLI read (version and numbered lines) the edit is based on.
local function edit_args(form, t, new, view)
  local rel = rel_of(form)
  local function line_of(text)
    for _, l in ipairs(view.lines) do
      if l.text == text then
        return l.line
      end
    end
    error('the read does not show ' .. text)
  end
  if form == 'replace' then
    return { 'replace', rel, '--old', row(t), '--new', new, '--json' }
  elseif form == 'headtail' then
    return { 'headtail', rel, '--head', row(t), '--tail', row(t + 1), '--new', new .. '\n' .. row(t + 1), '--json' }
  elseif form == 'range' then
    local n = line_of(row(t))
    return { 'range', rel, '--start', tostring(n), '--end', tostring(n), '--at', tostring(view.version),
      '--content', new, '--json' }
  elseif form == 'patch' then
    local patch = table.concat({ '*** Begin Patch', '*** Update File: ' .. rel, '@@', ' ' .. row(t - 1),
      '-' .. row(t), '+' .. new, ' ' .. row(t + 1), '*** End Patch', '' }, '\n')
    return { 'patch', '-', '--json' }, patch
  elseif form == 'draft' then
    local draft = table.concat({ row(t - 3), '// ... existing code ...', row(t - 1), new, row(t + 1), '' }, '\n')
    return { 'draft', rel, '-', '--json' }, draft
  elseif form == 'ed' then
    local n = line_of(row(t))
    return { 'ed', rel, '--at', tostring(view.version), '--script', n .. 'c\n' .. new .. '\n.\n', '--json' }
  end
  error('unknown form ' .. form)
end

-- The typist: every TYPE_EVERY_MS a keystroke-sized change, alternating a new top line and a
-- character appended to the last line. Counts what it did, for the model.
local function new_typist(bufnr)
  local typist = { top = {}, dots = 0, ticks = 0 }
  local timer
  local function type_once()
    if not vim.api.nvim_buf_is_valid(bufnr) then
      return
    end
    typist.ticks = typist.ticks + 1
    if typist.ticks % 2 == 1 then
      local line = 'typed ' .. typist.ticks
      vim.api.nvim_buf_set_lines(bufnr, 0, 0, true, { line })
      table.insert(typist.top, 1, line)
    else
      local last = vim.api.nvim_buf_line_count(bufnr) - 1
      local len = #vim.api.nvim_buf_get_lines(bufnr, last, last + 1, true)[1]
      vim.api.nvim_buf_set_text(bufnr, last, len, last, len, { '.' })
      typist.dots = typist.dots + 1
    end
  end
  typist.type_once = type_once
  function typist.start(delay)
    if timer then
      return
    end
    timer = H.compat.uv.new_timer()
    timer:start(math.max(delay, 0), TYPE_EVERY_MS, vim.schedule_wrap(function()
      if timer then
        type_once()
      end
    end))
  end
  function typist.stop()
    if timer then
      timer:stop()
      timer:close()
      timer = nil
    end
  end
  return typist
end

local function model(typist, body)
  local want = vim.deepcopy(typist.top)
  vim.list_extend(want, body)
  table.insert(want, 'far line' .. string.rep('.', typist.dots))
  return want
end

local function first_line(s)
  return (s:match('^[^\n]*') or '')
end

-- Typing that starts the moment the sidecar's edit reaches Neovim: one keystroke before the
-- plugin's handler sees the edit (so its version is already behind the buffer and the first
-- attempt is refused), then the timer keeps typing while the sidecar re-verifies and retries.
local function type_on_arrival(typist)
  local attach = require('hashline.attach')
  local original = attach.apply_edit_handler
  attach.apply_edit_handler = function(...)
    attach.apply_edit_handler = original
    typist.type_once()
    typist.start(TYPE_EVERY_MS)
    return original(...)
  end
  return function()
    attach.apply_edit_handler = original
  end
end

-- One round: read, then the edit while the typist types. Returns 'landed', attempts or the
-- refusal code; raises when the buffer is not the model.
local function race_round(ws, form, r, bufnr, typist, body)
  local rel = rel_of(form)
  local t = 10 + 2 * r -- rows 12, 14, ...: t-1, t+1 and t-3 are never edited
  local new = string.format('row %02d: %s round %d', t, form, r)
  local on_arrival = r % 2 == 0
  local offset = START_OFFSETS[math.floor((r - 1) / 2) % #START_OFFSETS + 1]
  local what = on_arrival and string.format('%s round %d (typing from the edit\'s arrival): ', form, r)
    or string.format('%s round %d (typing from %d ms after the read): ', form, r, offset)
  if not on_arrival and offset < 0 then
    typist.start(0)
    H.wait(-offset, function() return false end)
  end
  local code, out, err = H.cli(ws, { 'read', rel, '--json' })
  H.eq(0, code, what .. 'read (' .. err .. ')')
  local view = vim.fn.json_decode(out)
  local args, stdin = edit_args(form, t, new, view)
  local restore
  if on_arrival then
    restore = type_on_arrival(typist)
  elseif offset >= 0 then
    typist.start(offset)
  end
  code, out, err = H.cli(ws, args, stdin)
  typist.stop()
  if restore then
    restore()
  end
  local outcome
  if code == 0 then
    local result = vim.fn.json_decode(out)
    H.eq('applied', result.status, what .. 'status')
    -- (patch results do not report attempts)
    H.check(not on_arrival or result.attempts == nil or result.attempts > 1,
      what .. 'landed although its first attempt must have been refused: ' .. out)
    body[t] = new
    outcome = { landed = true, attempts = result.attempts or 1 }
  else
    local refusal = first_line(err):match('^([A-Z_]+)')
    H.check(code == 1 and refusal and REFUSALS[refusal] and (not on_arrival or refusal == 'EDITOR_REJECTED'),
      what .. 'neither applied nor refused as it may be: exit ' .. code .. ' ' .. err)
    outcome = { refusal = refusal }
  end
  H.eq(model(typist, body), H.lines(bufnr), what .. 'buffer (typing + landed edits)')
  H.assert_mirrored(bufnr, what .. 'mirror')
  return outcome
end

-- One form, ROUNDS rounds on one buffer. Returns a summary; raises on the first round that breaks
-- the model.
local function race_form(ws, form)
  local rel = rel_of(form)
  local body = {}
  for n = 1, ROWS do
    body[n] = row(n)
  end
  local disk_text = table.concat(body, '\n') .. '\nfar line\n'
  H.write_file(ws .. '/' .. rel, disk_text)
  local bufnr = H.open(ws .. '/' .. rel)
  local typist = new_typist(bufnr)
  typist.type_once() -- unsaved before the race starts
  H.assert_mirrored(bufnr, form .. ' before the race')
  local landed, retried, refused = 0, 0, {}
  local ok, err = pcall(function()
    for r = 1, ROUNDS do
      local outcome = race_round(ws, form, r, bufnr, typist, body)
      if outcome.landed then
        landed = landed + 1
        retried = retried + (outcome.attempts > 1 and 1 or 0)
      else
        refused[outcome.refusal] = (refused[outcome.refusal] or 0) + 1
      end
    end
  end)
  typist.stop()
  if not ok then
    error(err, 0)
  end
  H.check(vim.bo[bufnr].modified, form .. ': buffer no longer modified')
  H.eq(disk_text, H.read_file(ws .. '/' .. rel), form .. ': disk untouched')
  local parts = {}
  for name, n in pairs(refused) do
    table.insert(parts, name .. ' ' .. n)
  end
  table.sort(parts)
  return string.format('%d rounds: %d landed (%d reported retries), %d refused%s; %d keystrokes', ROUNDS, landed,
    retried, ROUNDS - landed, #parts > 0 and (' (' .. table.concat(parts, ', ') .. ')') or '', typist.ticks)
end

local forms = { 'replace', 'headtail', 'range', 'patch', 'draft', 'ed' }
for _, debounce in ipairs(DEBOUNCES) do
  local ws = H.work .. '/debounce-' .. debounce
  vim.fn.mkdir(ws, 'p')
  H.setup({ debounce = debounce, root_dir = function() return ws end })
  for _, form in ipairs(forms) do
    local summary
    local ok = H.test(string.format('race %s (debounce %d ms)', form, debounce), function()
      summary = race_form(ws, form)
    end)
    if ok then
      H.note(string.format('race %s (debounce %d ms): %s', form, debounce, summary))
    end
  end
  H.reset()
end
vim.cmd('qa!')
