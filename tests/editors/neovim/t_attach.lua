-- Setup, attach and mirroring: the plugin's commands exist before setup, setup attaches
-- `hashline lsp` to file buffers (one client per root, workspace folders, utf-8 negotiated),
-- typing and API edits are mirrored exactly (hashline/snapshot sha256 = buffer text), scratch
-- buffers are left alone, and :checkhealth hashline reports OK.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/harness.lua')

local root = H.work .. '/attach'
local sample = root .. '/proj/sample.txt'
local original = 'hello world\nemoji \u{1F600} here\n\u{4E2D}\u{6587} line\nlast line\n'
local bufnr, client

H.run({
  { 'commands-defined-before-setup', function()
    for _, name in ipairs({ 'HashlineStatus', 'HashlineLog', 'HashlineUndo', 'HashlineAttach' }) do
      H.eq(2, vim.fn.exists(':' .. name), ':' .. name .. ' defined by plugin/hashline.lua')
    end
    H.check(package.loaded['hashline.attach'] == nil, 'plugin/ must not load the modules before use')
    H.eq({}, H.compat.get_clients(), 'no client before setup')
  end },


  { 'setup-and-attach', function()
    vim.fn.mkdir(root .. '/proj/.git', 'p')
    H.setup()
    bufnr, client = H.open(sample, original)
    H.eq('hashline', client.name, 'client name')
    H.eq(root .. '/proj', client.config.root_dir, 'root from the .git marker')
    H.eq(vim.uri_from_fname(root .. '/proj'), client.workspace_folders[1].uri, 'workspace folder')
    H.eq(true, client.config.init_options.agentSocket, 'agentSocket requested')
  end },

  { 'utf8-position-encoding-negotiated', function()
    H.check(client, 'not attached')
    H.eq('utf-8', client.offset_encoding, 'offset_encoding adopted from the server (utf-8 offered first)')
  end },

  { 'open-text-mirrored', function()
    H.check(client, 'not attached')
    H.assert_mirrored(bufnr, 'after didOpen')
  end },

  { 'typing-mirrored', function()
    H.check(client, 'not attached')
    -- real keys through insert mode, after astral and CJK characters
    vim.api.nvim_win_set_cursor(0, { 2, 0 })
    H.type_keys('A typed \u{1F680}!<Esc>')
    vim.api.nvim_win_set_cursor(0, { 3, 0 })
    H.type_keys('f\u{6587}a\u{00E9}\u{00E8}<Esc>')
    H.type_keys('Go\u{0444}\u{0443}<CR>two<CR>three<Esc>')
    H.type_keys('ggddp')                                   -- delete + put a line
    H.type_keys('u')                                       -- undo
    H.type_keys('Gkkj$xx')                                 -- delete characters at line end
    H.type_keys('ggOnew first line<Esc>')
    H.assert_mirrored(bufnr, 'after typing')
    H.check(vim.bo[bufnr].modified, 'buffer modified')
    H.eq(original, H.read_file(sample), 'disk untouched by typing')
  end },

  { 'api-changes-mirrored', function()
    H.check(client, 'not attached')
    -- byte columns in the API: right after the emoji on line 3
    local row, col
    for i, line in ipairs(H.lines(bufnr)) do
      col = line:find('\u{1F600}', 1, true)
      if col then
        row = i - 1
        break
      end
    end
    H.check(row, 'no emoji line left')
    vim.api.nvim_buf_set_text(bufnr, row, col - 1 + 4, row, col - 1 + 4, { 'X', 'Y' })
    vim.api.nvim_buf_set_lines(bufnr, 0, 1, false, {})
    local big = {}
    for i = 1, 500 do
      big[i] = string.format('pasted line %03d \u{00E4}', i)
    end
    vim.api.nvim_buf_set_lines(bufnr, 1, 1, false, big)
    vim.api.nvim_buf_set_lines(bufnr, 100, 400, false, { 'replaced' })
    vim.cmd('silent %s/line/LINE/g')
    H.assert_mirrored(bufnr, 'after API edits')
    vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, { '' })  -- empty the buffer
    H.assert_mirrored(bufnr, 'after emptying')
    vim.api.nvim_buf_set_lines(bufnr, 0, -1, false, vim.split(original:sub(1, -2), '\n', true))
    H.assert_mirrored(bufnr, 'after refilling')
  end },

  { 'crlf-file-mirrored', function()
    local path = root .. '/proj/dos.txt'
    local b = H.open(path, 'one\r\ntwo\r\nthree\r\n')
    H.eq('dos', vim.bo[b].fileformat, 'fileformat')
    H.assert_mirrored(b, 'CRLF after open')
    H.type_keys('ggjA more<Esc>Go four<Esc>')
    H.assert_mirrored(b, 'CRLF after typing')
  end },

  { 'one-client-per-root', function()
    H.check(client, 'not attached')
    local b2, c2 = H.open(root .. '/proj/sub/other.txt', 'x\n')
    H.eq(client.id, c2.id, 'same root, same client')
    vim.fn.mkdir(root .. '/elsewhere/.hg', 'p')
    local b3, c3 = H.open(root .. '/elsewhere/third.txt', 'y\n')
    H.check(c3.id ~= client.id, 'another root gets its own client')
    H.eq(root .. '/elsewhere', c3.config.root_dir, 'second root')
    H.assert_mirrored(b2, 'second buffer')
    H.assert_mirrored(b3, 'third buffer')
  end },

  { 'utf16-when-only-utf16-offered', function()
    H.setup({ position_encoding = 'utf-16' })
    vim.fn.mkdir(root .. '/u16/.git', 'p')
    local b, c = H.open(root .. '/u16/wide.txt', 'a\u{1F600}b \u{4E2D}\nplain\n')
    H.setup()
    H.eq('utf-16', c.offset_encoding, 'offset_encoding')
    H.type_keys('ggfbi\u{1F680}<Esc>A\u{00E9}<Esc>jA!<Esc>')
    vim.api.nvim_buf_set_text(b, 0, 1, 0, 5, { '\u{2603}' })        -- replace the 4-byte emoji
    H.assert_mirrored(b, 'utf-16 columns')
    vim.cmd('buffer ' .. bufnr)
  end },

  { 'scratch-and-unnamed-not-attached', function()
    vim.cmd('enew')
    local unnamed = vim.api.nvim_get_current_buf()
    vim.api.nvim_buf_set_lines(unnamed, 0, -1, false, { 'scratch text' })
    local scratch = vim.api.nvim_create_buf(false, true)
    vim.wait(200)
    H.eq(nil, require('hashline').client(unnamed), 'unnamed buffer has no client')
    H.eq(nil, require('hashline').client(scratch), 'nofile buffer has no client')
    local id, reason = require('hashline').attach(unnamed)
    H.eq(nil, id, 'attach refused')
    H.check(reason and reason:find('no file name', 1, true), 'reason given: ' .. tostring(reason))
    vim.cmd('buffer ' .. bufnr)
  end },

  { 'checkhealth-clean', function()
    H.check(client, 'not attached')
    vim.cmd('checkhealth hashline')
    local report = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
    vim.cmd('tabclose')
    H.check(not report:find('ERROR') and not report:find('WARN'), 'no warning or error in report:\n' .. report)
    H.check(report:find('OK:? hashline %S+ %(' .. vim.pesc(vim.fn.exepath(H.bin))), 'binary reported OK:\n' .. report)
    H.check(report:find('OK:? client %d+ attached: root ' .. vim.pesc(root .. '/proj')), 'client reported OK:\n' .. report)
    H.check(report:find('OK:? Neovim'), 'Neovim version reported OK:\n' .. report)
    H.check(report:find('Claude Code IDE server off', 1, true), 'Claude IDE line:\n' .. report)
  end },
})
