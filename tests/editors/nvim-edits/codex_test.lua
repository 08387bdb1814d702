-- The 25 codex apply_patch scenarios landing in open, unsaved Neovim buffers. Per scenario: a
-- copy of input/ as the workspace; every file the patch may keep (not deleted, not moved) is
-- opened through the plugin and gets an unsaved user line; the `hashline` CLI (a separate
-- process, finding the sidecar through its discovery file) reads every file and runs
-- `hashline patch`. Then: each buffer == codex's expected file + the user line and still
-- modified, each open file unchanged on disk, every other file on disk == codex's expected tree;
-- patches codex refuses (and 015, hashline's deliberate difference) change nothing anywhere.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/../neovim/common.lua')

local scenarios_dir = H.root .. '/tests/conformance/codex-apply-patch/scenarios'
local codex_root = H.work

-- 015: codex keeps the Add of created.txt although a later hunk fails; hashline verifies the
-- whole patch first and refuses it (docs/forms.md, "Deliberate differences").
local refused_although_codex_applies = { ['015_failure_after_partial_success_leaves_changes'] = true }

local function scenario_names()
  local names = {}
  local handle = assert(H.compat.uv.fs_scandir(scenarios_dir))
  while true do
    local name, kind = H.compat.uv.fs_scandir_next(handle)
    if not name then
      break
    end
    if kind == 'directory' then
      table.insert(names, name)
    end
  end
  table.sort(names)
  return names
end

-- Paths the patch deletes, moves away or moves onto (never open: hashline refuses to delete or
-- move a file behind a buffer), and paths it adds.
local function patch_targets(patch)
  local closed, added = {}, {}
  for line in (patch .. '\n'):gmatch('([^\n]*)\n') do
    line = vim.trim(line)
    local verb, path = line:match('^%*%*%* (%a+) File: (.+)$')
    local moved_to = line:match('^%*%*%* Move to: (.+)$')
    if verb == 'Delete' then
      closed[path] = true
    elseif verb == 'Add' then
      added[path] = true
    elseif verb == 'Update' then
      closed.last_update = path
    end
    if moved_to then
      closed[closed.last_update] = true
      closed[moved_to] = true
    end
  end
  closed.last_update = nil
  return closed, added
end

-- True when the text mixes line endings (a user line at the top would change the first ending,
-- which a patch's new lines copy); the user line then goes at the bottom.
local function mixed_endings(text)
  local crlf = select(2, text:gsub('\r\n', ''))
  local all_cr = select(2, text:gsub('\r', ''))
  local all_lf = select(2, text:gsub('\n', ''))
  return (crlf > 0 and (all_cr > crlf or all_lf > crlf)) or (crlf == 0 and all_cr > 0 and all_lf > 0)
end

local function has_lone_cr(text)
  return text:gsub('\r\n', ''):find('\r') ~= nil
end

local function trees_equal(want, got)
  return vim.deep_equal(want, got)
end

local function run_scenario(name)
  local dir = scenarios_dir .. '/' .. name
  local ws = codex_root .. '/' .. name
  local input = H.tree(dir .. '/input')
  local expected = H.tree(dir .. '/expected')
  local patch_path = dir .. '/patch.txt'
  local patch = assert(H.read_file(patch_path))
  local must_refuse = refused_although_codex_applies[name] or trees_equal(input, expected)
  H.write_tree(ws, input)
  vim.fn.mkdir(ws, 'p')

  -- Open the files and make the user's unsaved changes.
  local closed, added = patch_targets(patch)
  local open = {} -- rel -> {bufnr, where = 'top'|'bottom'|nil, line}
  local rels = vim.tbl_keys(input)
  table.sort(rels)
  for _, rel in ipairs(rels) do
    if not closed[rel] then
      local bufnr = H.open(ws .. '/' .. rel)
      local entry = { bufnr = bufnr }
      -- No user line where an Add replaces the file whole, nor in a file with a lone CR (that case
      -- has its own check below: Neovim and the sidecar split its lines differently).
      if not added[rel] and not has_lone_cr(input[rel]) then
        entry.line = 'unsaved user line in ' .. rel
        entry.where = mixed_endings(input[rel]) and 'bottom' or 'top'
        if entry.where == 'top' then
          vim.api.nvim_buf_set_lines(bufnr, 0, 0, true, { entry.line })
        else
          vim.api.nvim_buf_set_lines(bufnr, -1, -1, true, { entry.line })
        end
      end
      open[rel] = entry
    end
  end
  -- A scenario with no user line in a file buffer gets an unsaved new buffer holding one, so the
  -- sidecar runs and the user has unsaved work the patch must not touch.
  local scratch
  local has_user_line = false
  for _, entry in pairs(open) do
    has_user_line = has_user_line or entry.line ~= nil
  end
  if not has_user_line then
    scratch = H.open(ws .. '/scratch.txt')
    vim.api.nvim_buf_set_lines(scratch, 0, -1, true, { 'unsaved scratch text' })
  end
  local before = {}
  for rel, entry in pairs(open) do
    if has_lone_cr(input[rel]) then
      H.assert_refused_lone_cr(ws, rel, entry.bufnr, rel .. ' before the patch')
    else
      H.assert_mirrored(entry.bufnr, rel .. ' before the patch')
    end
    before[rel] = H.written_text(entry.bufnr)
  end

  -- The agent reads every file (a refused one, see above, cannot be read), then sends the patch.
  for _, rel in ipairs(rels) do
    if not (open[rel] and has_lone_cr(input[rel])) then
      local code, _, err = H.cli(ws, { 'read', rel, '--json' })
      H.eq(0, code, 'read ' .. rel .. ' (' .. err .. ')')
    end
  end
  local code, stdout, stderr = H.cli(ws, { 'patch', patch_path, '--json' })
  -- A lone CR inside an open file: Neovim keeps it inside a line while LSP positions break the
  -- line there (neovim#15532), so refusing the patch, with nothing changed, is also correct.
  local refused_lone_cr = false
  if code == 1 and not must_refuse then
    for rel in pairs(open) do
      refused_lone_cr = refused_lone_cr or has_lone_cr(input[rel])
    end
    must_refuse = refused_lone_cr
  end

  -- Buffers.
  for rel, entry in pairs(open) do
    local bufnr = entry.bufnr
    if must_refuse then
      H.eq(before[rel], H.written_text(bufnr), rel .. ': buffer unchanged by a refused patch')
    else
      local want = expected[rel]
      H.check(want ~= nil, rel .. ' is open but not in expected/')
      if entry.where == 'top' then
        want = entry.line .. H.nl(bufnr) .. want
      elseif entry.where == 'bottom' then
        want = want .. entry.line .. H.nl(bufnr)
      end
      H.eq(want, H.written_text(bufnr), rel .. ': buffer (as :write would save it)')
    end
    H.check(vim.bo[bufnr].modified or (must_refuse and entry.line == nil), rel .. ': buffer is not modified')
    if has_lone_cr(input[rel]) then
      H.assert_refused_lone_cr(ws, rel, bufnr, rel .. ' after the patch')
    else
      H.assert_mirrored(bufnr, rel .. ' after the patch')
    end
  end
  if scratch then
    H.eq({ 'unsaved scratch text' }, H.lines(scratch), 'scratch buffer untouched')
  end

  -- Disk: open files keep their saved text; everything else is codex's expected tree.
  local want_disk = {}
  for rel, text in pairs(must_refuse and input or expected) do
    want_disk[rel] = text
  end
  for rel in pairs(open) do
    want_disk[rel] = input[rel]
  end
  H.eq(want_disk, H.tree(ws), 'disk tree')

  -- Exit status and the per-file backend of the result.
  if refused_lone_cr then
    H.check(vim.startswith(stderr, 'DESYNCED'), name .. ': refused as DESYNCED (lone CR): ' .. stderr)
    H.note(name .. ': refused (a lone CR in an open buffer): ' .. stderr)
  elseif must_refuse then
    H.eq(1, code, 'a refused patch exits 1 (stdout ' .. stdout .. ', stderr ' .. stderr .. ')')
  else
    H.eq(0, code, 'patch exit (stderr ' .. stderr .. ')')
    local result = vim.fn.json_decode(stdout)
    H.eq('applied', result.status, 'status')
    for _, file in ipairs(result.files or {}) do
      local rel = file.path
      local want_backend = (open[rel] and 'buffer') or 'disk'
      H.eq(want_backend, file.backend, rel .. ' backend')
    end
    local buffered = 0
    for _, file in ipairs(result.files or {}) do
      if file.backend == 'buffer' then
        buffered = buffered + 1
      end
    end
    return buffered
  end
  return 0
end

local names = scenario_names()
local landed_in_buffers = 0
H.setup({
  -- each scenario directory is its own workspace (one sidecar each)
  root_dir = function(path)
    local prefix = codex_root .. '/'
    if path:sub(1, #prefix) == prefix then
      return prefix .. path:sub(#prefix + 1):match('^[^/]+')
    end
    return nil
  end,
})
for _, name in ipairs(names) do
  H.test('codex ' .. name, function()
    landed_in_buffers = landed_in_buffers + run_scenario(name)
  end)
  H.reset()
end
-- A file with a lone CR (as 024's): Neovim keeps the CR inside a line, LSP positions break the
-- line there (neovim#15532). The sidecar refuses the buffer (DESYNCED, naming the lone CR) rather
-- than mirror it wrong: typing below it and edits change nothing it should not; once the user
-- removes the lone CR, saves and reopens, reads and edits work again.
H.test('lone CR: the buffer is refused, never mis-edited; fixed and reopened, edits land', function()
  local ws = codex_root .. '/lone-cr'
  H.write_file(ws .. '/lines.txt', 'one\r\ntwo\rthree\nfour\r\nfive\r\n')
  local bufnr = H.open(ws .. '/lines.txt')
  H.eq({ 'one\r', 'two\rthree', 'four\r', 'five\r' }, H.lines(bufnr), 'Neovim keeps the lone CR inside line 2')
  vim.api.nvim_buf_set_lines(bufnr, -1, -1, true, { 'typed' })
  H.assert_refused_lone_cr(ws, 'lines.txt', bufnr, 'after typing below the lone CR')
  local code, _, err = H.cli(ws, { 'replace', 'lines.txt', '--old', 'four', '--new', 'FOUR' })
  H.eq(1, code, 'replace in a refused buffer (stderr ' .. err .. ')')
  H.eq({ 'one\r', 'two\rthree', 'four\r', 'five\r', 'typed' }, H.lines(bufnr), 'buffer after the refusal')
  -- The user splits the line at the CR, saves and reopens: the mirror is trusted again.
  vim.api.nvim_buf_set_lines(bufnr, 1, 2, true, { 'two\r', 'three\r' })
  vim.api.nvim_buf_call(bufnr, function()
    vim.cmd('silent write')
    vim.cmd('edit')
  end)
  H.assert_mirrored(bufnr, 'after the lone CR was removed and the file reopened')
  code, _, err = H.cli(ws, { 'read', 'lines.txt', '--json' })
  H.eq(0, code, 'read after reopening (' .. err .. ')')
  code, _, err = H.cli(ws, { 'replace', 'lines.txt', '--old', 'four', '--new', 'FOUR' })
  H.eq(0, code, 'replace after reopening (' .. err .. ')')
  H.eq({ 'one\r', 'two\r', 'three\r', 'FOUR\r', 'five\r', 'typed' }, H.lines(bufnr), 'buffer after the edit')
end)
H.reset()

-- The files left closed above, opened instead: deleting (002) or moving (004) a file behind its
-- buffer is refused with CONFLICT, and nothing of the patch happens, in buffers or on disk.
for _, name in ipairs({ '002_multiple_operations', '004_move_to_new_directory' }) do
  H.test('open file under a delete/move refused: ' .. name, function()
    local dir = scenarios_dir .. '/' .. name
    local ws = codex_root .. '/open-' .. name
    local input = H.tree(dir .. '/input')
    H.write_tree(ws, input)
    local bufs = {}
    for rel in pairs(input) do
      bufs[rel] = H.open(ws .. '/' .. rel)
      vim.api.nvim_buf_set_lines(bufs[rel], 0, 0, true, { 'unsaved' })
      H.assert_mirrored(bufs[rel], rel)
      local code, _, err = H.cli(ws, { 'read', rel })
      H.eq(0, code, 'read ' .. rel .. ' (' .. err .. ')')
    end
    local code, _, err = H.cli(ws, { 'patch', dir .. '/patch.txt' })
    H.eq(1, code, 'exit (stderr ' .. err .. ')')
    H.check(vim.startswith(err, 'CONFLICT'), 'CONFLICT first on stderr: ' .. err)
    for rel, bufnr in pairs(bufs) do
      H.eq('unsaved\n' .. input[rel], H.written_text(bufnr), rel .. ' buffer unchanged')
    end
    H.eq(input, H.tree(ws), 'disk unchanged')
  end)
  H.reset()
end

H.test('codex scenario count', function()
  H.eq(25, #names, 'scenarios found in ' .. scenarios_dir)
end)
H.note(string.format('codex: %d scenarios, %d file updates landed in open buffers', #names, landed_in_buffers))
vim.cmd('qa!')
