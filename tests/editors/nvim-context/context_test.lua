-- Headless Neovim (each tested version) with the hashline plugin (setup{}): the user moves the
-- cursor, selects lines and characters, splits a window; the `hashline` CLI, a separate process,
-- asks for the context as an agent would and gets the selection's text and anchored rows, the
-- latest selection after the user clicked elsewhere, and the visible windows. An edit follows a
-- selection's rows without a read. With HASHLINE_CONTEXT_OFF=1 the plugin runs with
-- share_selection = false and the sidecar must say it has no selection. The test runs in a
-- coroutine that yields to Neovim's main loop between steps, so typed keys are handled as the
-- user's are and CursorMoved/ModeChanged fire. Writes "PASS name" / "FAIL name: why" lines to
-- $RESULTS (common.lua), then quits.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/../neovim/common.lua')
local off = os.getenv('HASHLINE_CONTEXT_OFF') == '1'
local hashline = require('hashline')
local ws = H.work .. '/ws'
local main_txt = ws .. '/main.txt'
local other_txt = ws .. '/other.txt'

local disk_lines = { 'alpha line', 'beta line', 'gamma été line', 'delta line', 'epsilon line', 'zeta line' }
local TYPED = 'typed by the user, not saved'

-- Types keys as the user would; the main loop handles them while the test sleeps.
local function keys(sequence)
  vim.api.nvim_input(sequence)
  H.sleep(50)
  assert(H.wait(2000, function() return vim.api.nvim_get_mode().blocking == false end), 'keys pending')
end

-- `hashline context` until `pred(result)` holds (the plugin sends 150 ms after the last move).
local function context_until(pred, what)
  local last
  assert(H.wait(5000, function()
    local code, result = H.cli_json(ws, { 'context', '--session', 'agent' })
    last = result
    local ok, yes = pcall(pred, result) -- a field may be missing (or null) until the report lands
    return code == 0 and ok and yes
  end), what .. ': ' .. vim.inspect(last))
  return last
end

-- A selection's rows: one string, one anchored row per line.
local function split_rows(text)
  return vim.split(text or '', '\n', { plain = true, trimempty = true })
end

local function anchor_of(row)
  return row:match('^(%d+:%w+:%w+)')
end

local function main()
  vim.fn.mkdir(ws .. '/.git', 'p')
  H.write_file(main_txt, table.concat(disk_lines, '\n') .. '\n')
  H.write_file(other_txt, 'other one\nother two\n')

  local bufnr
  local ok = H.test('attach' .. (off and '-with-share-selection-off' or ''), function()
    hashline.setup({
      cmd = { H.bin, 'lsp', '--log-file', H.work .. '/hashline' .. (off and '-off' or '') .. '.log' },
      share_selection = not off,
    })
    bufnr = H.open(main_txt)
    vim.api.nvim_buf_set_lines(bufnr, 0, 0, false, { TYPED }) -- unsaved: the buffer is 7 lines now
    assert(vim.bo[bufnr].modified, 'buffer should be modified')
  end)

  if off then
    ok = ok and H.test('share-selection-off-sends-nothing', function()
      keys('3GVj')
      H.sleep(600)
      local code, result, raw = H.cli_json(ws, { 'context' })
      assert(code == 0 and result.available == false, raw)
      assert(result.note:find('share_selection', 1, true), 'note names the setting: ' .. result.note)
      keys('<Esc>')
    end)
    return
  end

  ok = ok and H.test('cursor-is-an-empty-selection-on-its-line', function()
    vim.api.nvim_win_set_cursor(0, { 3, 2 }) -- 'beta line', after 'be'
    keys('l') -- a real cursor move fires CursorMoved
    local result = context_until(function(r)
      return r.available and r.active and r.active.selections[1].from.line == 3
    end, 'cursor on line 3')
    local selection = result.active.selections[1]
    assert(selection.empty == true and selection.text == '', vim.inspect(selection))
    assert(selection.from.character == 3, 'character ' .. tostring(selection.from.character))
    assert(result.active.path == main_txt and result.active.version == result.active.documentVersion,
      vim.inspect(result.active))
    local lines = split_rows(selection.rows)
    assert(#lines == 1 and lines[1]:find('3:', 1, true) == 1, vim.inspect(selection.rows))
  end)

  local rows
  ok = ok and H.test('linewise-selection-gives-its-text-and-anchored-rows', function()
    keys('<Esc>3GVj') -- lines 3-4 of the buffer: 'beta line', 'gamma été line'
    local result = context_until(function(r)
      local s = r.active and r.active.selections[1]
      return s and not s.empty and s.from.line == 3 and s.to.line == 5
    end, 'lines 3-4 selected')
    local selection = result.active.selections[1]
    assert(selection.text == 'beta line\ngamma été line\n', vim.inspect(selection.text))
    rows = split_rows(selection.rows)
    assert(#rows == 2, vim.inspect(rows))
    assert(rows[1]:find('→beta line$') and rows[2]:find('→gamma été line$'), vim.inspect(rows))
    local _, read = H.cli_json(ws, { 'read', 'main.txt', '--from', '3', '--to', '4' })
    assert(read.lines[1].anchor == anchor_of(rows[1]) and read.lines[2].anchor == anchor_of(rows[2]),
      'rows ' .. vim.inspect(rows) .. ' read ' .. vim.inspect(read.lines))
  end)

  ok = ok and H.test('characterwise-selection-counts-the-clients-encoding', function()
    keys('<Esc>4G0fév2l') -- 'été' on line 4, three characters (é is two bytes)
    local result = context_until(function(r)
      local s = r.active and r.active.selections[1]
      return s and not s.empty and s.from.line == 4 and s.text == 'été'
    end, 'été selected')
    local selection = result.active.selections[1]
    local encoding = result.encoding
    local want = ({ ['utf-8'] = 11, ['utf-16'] = 9, ['utf-32'] = 9 })[encoding]
    assert(selection.to.character == want, encoding .. ': to ' .. vim.inspect(selection.to))
    assert(#split_rows(selection.rows) == 1, vim.inspect(selection.rows))
  end)

  ok = ok and H.test('latest-selection-survives-a-click-elsewhere', function()
    keys('<Esc>6G')
    local result = context_until(function(r)
      return r.active and r.active.selections[1].empty and r.active.selections[1].from.line == 6
    end, 'cursor on line 6')
    local latest = result.latestSelection
    assert(latest and latest.selection.text == 'été', vim.inspect(latest))
    assert(latest.path == main_txt, vim.inspect(latest))
  end)

  ok = ok and H.test('an-edit-follows-the-selection-rows-without-a-read', function()
    local code, result, raw = H.cli_json(ws, { 'edit', 'main.txt', '--session', 'agent', '--agent', 'bot', '--edits',
      vim.fn.json_encode({ { op = 'replace', anchor = anchor_of(rows[1]), content = 'BETA LINE' } }) })
    assert(code == 0 and result.status == 'applied', raw)
    assert(vim.api.nvim_buf_get_lines(bufnr, 2, 3, false)[1] == 'BETA LINE', 'buffer line 3')
    assert(vim.api.nvim_buf_get_lines(bufnr, 0, 1, false)[1] == TYPED, 'typing lost')
    assert(H.read_file(main_txt) == table.concat(disk_lines, '\n') .. '\n', 'the disk changed')
    -- the old row of line 3 is stale now
    code, result, raw = H.cli_json(ws, { 'edit', 'main.txt', '--session', 'agent', '--edits',
      vim.fn.json_encode({ { op = 'replace', anchor = anchor_of(rows[1]), content = 'again' } }) })
    assert(code == 1 and raw:find('STALE_ANCHOR', 1, true), raw)
  end)

  ok = ok and H.test('visible-windows-are-listed-with-their-lines', function()
    vim.cmd('split ' .. other_txt)
    H.wait_attached(vim.api.nvim_get_current_buf(), 'other.txt')
    keys('j')
    local result = context_until(function(r)
      return r.active and r.active.path == other_txt and #r.visible == 2
    end, 'two visible windows')
    local seen = {}
    for _, entry in ipairs(result.visible) do
      seen[entry.path] = entry.ranges[1]
    end
    assert(seen[main_txt] and seen[main_txt].from == 1, vim.inspect(result.visible))
    assert(seen[other_txt] and seen[other_txt].from == 1 and seen[other_txt].to == 2, vim.inspect(result.visible))
  end)

  ok = ok and H.test('send-to-claude-says-the-ide-server-is-off', function()
    local said = {}
    local original = vim.notify
    vim.notify = function(msg, level) table.insert(said, { msg = msg, level = level }) end
    local done_ok, why = pcall(vim.cmd, '1,2HashlineSendToClaude')
    vim.notify = original
    assert(done_ok, why)
    assert(#said == 1 and said[1].msg:find('Claude IDE server is off', 1, true)
      and said[1].level == vim.log.levels.WARN, vim.inspect(said))
  end)

  ok = ok and H.test('human-output-shows-the-selection-rows', function()
    vim.cmd('wincmd j') -- back to main.txt
    keys('<Esc>5GV')
    context_until(function(r)
      local s = r.active and r.active.path == main_txt and r.active.selections[1]
      return s and not s.empty and s.from.line == 5
    end, 'line 5 selected')
    local code, out, err = H.cli(ws, { 'context' })
    assert(code == 0, out .. err)
    assert(out:find('main.txt', 1, true) and out:find('\n  5:%w+:%w+→delta line'), out)
    keys('<Esc>')
  end)

  -- Live search: text typed and not saved is found in the buffer (rg on the disk cannot), an edit
  -- follows the hit's anchor without a read, and once the user changes that line the hit is stale.
  ok = ok and H.test('search-finds-unsaved-text-and-an-edit-follows-the-hit', function()
    vim.api.nvim_buf_set_lines(bufnr, 3, 3, false, { 'unsaved_search_marker here' }) -- line 4
    local code, result, raw = H.cli_json(ws, { 'search', 'unsaved_search_marker', '--session', 'finder' })
    assert(code == 0 and result.hitCount == 1, raw)
    local file = result.files[1]
    assert(file.path == main_txt and file.backend == 'buffer', raw)
    assert(file.lines[1].line == 4 and file.lines[1].text == 'unsaved_search_marker here', raw)
    assert(not H.read_file(main_txt):find('unsaved_search_marker', 1, true), 'the marker reached the disk')
    local anchor = file.lines[1].anchor
    code, result, raw = H.cli_json(ws, { 'edit', 'main.txt', '--session', 'finder', '--edits',
      vim.fn.json_encode({ { op = 'replace', anchor = anchor, content = 'found and edited' } }) })
    assert(code == 0 and result.status == 'applied', raw)
    assert(vim.api.nvim_buf_get_lines(bufnr, 3, 4, false)[1] == 'found and edited', 'buffer line 4')
    code, result, raw = H.cli_json(ws, { 'search', 'found and edited', '--literal', '--session', 'finder2' })
    assert(code == 0 and result.hitCount == 1, raw)
    local hit = result.files[1].lines[1].anchor
    vim.api.nvim_buf_set_lines(bufnr, 3, 4, false, { 'found and edited, then the user typed' })
    code, result, raw = H.cli_json(ws, { 'edit', 'main.txt', '--session', 'finder2', '--edits',
      vim.fn.json_encode({ { op = 'replace', anchor = hit, content = 'stale' } }) })
    assert(code == 1 and raw:find('STALE_ANCHOR', 1, true), raw)
    assert(vim.api.nvim_buf_get_lines(bufnr, 3, 4, false)[1] == 'found and edited, then the user typed',
      'the refused edit changed the buffer')
  end)

  -- What Claude Code's openFile / saveDocument ask the editor to do (hashline.editor_requests).
  ok = ok and H.test('show-document-and-save-document-requests', function()
    local requests = require('hashline.editor_requests')
    local shown = requests.show_document(nil, { uri = vim.uri_from_fname(other_txt), takeFocus = true,
      selection = { start = { line = 1, character = 0 }, ['end'] = { line = 2, character = 0 } } })
    assert(shown.success == true, vim.inspect(shown))
    assert(vim.api.nvim_buf_get_name(0) == other_txt and vim.api.nvim_win_get_cursor(0)[1] == 2,
      vim.api.nvim_buf_get_name(0) .. ' line ' .. vim.api.nvim_win_get_cursor(0)[1])
    assert(vim.bo[bufnr].modified, 'main.txt should still hold unsaved typing')
    local saved = requests.save_document(nil, { textDocument = { uri = vim.uri_from_bufnr(bufnr) } })
    assert(saved.saved == true, vim.inspect(saved))
    assert(not vim.bo[bufnr].modified, 'main.txt still modified')
    local disk = H.read_file(main_txt)
    assert(disk:find(TYPED, 1, true) == 1 and disk:find('BETA LINE', 1, true), disk)
    local missing = requests.save_document(nil, { textDocument = { uri = vim.uri_from_fname(ws .. '/nope.txt') } })
    assert(missing.saved == false and missing.reason, vim.inspect(missing))
    local _, err = requests.show_document(nil, {})
    assert(err and err.code == -32602, vim.inspect(err))
  end)
end

H.drive(main)
