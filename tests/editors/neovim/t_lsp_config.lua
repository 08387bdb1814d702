-- The plugin's lsp/hashline.lua, Neovim 0.11+'s way to set up a language server, without
-- require('hashline').setup{}: on 0.11+ vim.lsp.config('hashline', {cmd}) + vim.lsp.enable('hashline')
-- attach a file buffer, the Lua API reads and edits through that client, the plugin's disk-write
-- handling is installed, :checkhealth hashline reports no warning or error (it names the running
-- client's binary), setup{}'s autostart then reuses the same client for the same root, and
-- :checkhealth stays clean. Before 0.11 (no vim.lsp.config), the same
-- config table starts a client by hand (vim.lsp.start, or start_client on 0.7) that attaches and
-- serves reads: lsp/hashline.lua is valid on every version.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/harness.lua')

local root = H.work .. '/lspconfig/proj'
local has_config = vim.lsp.config ~= nil and vim.lsp.enable ~= nil
local bufnr, client_id

local function attached_client(b)
  local client = require('hashline').client(b)
  if client and client.initialized and H.compat.attached(client, b) then
    return client
  end
end

H.run({
  { 'lsp-hashline-lua-on-runtimepath', function()
    local files = vim.api.nvim_get_runtime_file('lsp/hashline.lua', false)
    H.eq(1, #files, 'lsp/hashline.lua found on runtimepath')
    local conf = dofile(files[1])
    H.eq('hashline', conf.name, 'name')
    H.eq('function', type(conf.root_dir), 'root_dir is a function (per buffer)')
    H.eq({ 'hashline', 'lsp' }, conf.cmd, 'default cmd')
    H.check(conf.handlers and conf.handlers['workspace/applyEdit'], "the plugin's applyEdit handler")
  end },

  { 'enable-attaches-a-file-buffer', function()
    vim.fn.mkdir(root .. '/.git', 'p')
    H.write_file(root .. '/notes.txt', 'one\ntwo\nthree\n')
    if has_config then
      vim.lsp.config('hashline', { cmd = { H.bin, 'lsp' } })
      vim.lsp.enable('hashline')
      vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/notes.txt'))
      bufnr = vim.api.nvim_get_current_buf()
    else
      vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/notes.txt'))
      bufnr = vim.api.nvim_get_current_buf()
      local conf = dofile(vim.api.nvim_get_runtime_file('lsp/hashline.lua', false)[1])
      conf.cmd = { H.bin, 'lsp' }
      conf.root_dir(bufnr, function(dir)
        conf.root_dir = dir
      end)
      H.eq(root, conf.root_dir, 'root_dir(bufnr, on_dir) gives the .git root')
      if vim.lsp.start then
        client_id = vim.lsp.start(conf, { bufnr = bufnr })
      else
        client_id = vim.lsp.start_client(conf)
        vim.lsp.buf_attach_client(bufnr, client_id)
      end
    end
    H.check(H.wait(15000, function()
      return attached_client(bufnr) ~= nil
    end), 'the hashline client attached to notes.txt')
    local client = attached_client(bufnr)
    client_id = client.id
    H.eq(root, client.config.root_dir, 'root')
    H.eq(vim.uri_from_fname(root), client.workspace_folders[1].uri, 'workspace folder')
    H.eq(false, require('hashline').did_setup, 'no setup{} was called')
  end },

  { 'api-reads-and-edits-through-it', function()
    H.type_keys('ggAA<Esc>') -- unsaved typing
    local hashline = require('hashline')
    local read = H.need('hashline.read', hashline.read(bufnr))
    H.eq('oneA', read.lines[1].text, 'read sees the unsaved line')
    local result = H.need('hashline.edit', hashline.edit(bufnr, { { op = 'replace', anchor = read.lines[3].anchor,
      content = 'THREE' } }))
    H.eq('applied', result.status, 'edit applied: ' .. vim.inspect(result))
    H.eq({ 'oneA', 'two', 'THREE' }, H.lines(bufnr), 'buffer')
    H.eq('one\ntwo\nthree\n', H.read_file(root .. '/notes.txt'), 'disk untouched')
    H.assert_mirrored(bufnr, 'after the edit')
  end },

  { 'disk-write-handling-installed', function()
    if not has_config then
      require('hashline.reconcile').enable() -- what the 0.11+ client's first attach does
    end
    H.eq(1, #vim.api.nvim_get_autocmds({ group = 'hashline_reconcile', event = 'FileChangedShell' }),
      'FileChangedShell handled (no W12 prompt over merged writes)')
  end },

  { 'checkhealth-without-setup', function()
    vim.cmd('checkhealth hashline')
    local report = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
    vim.cmd('tabclose')
    H.check(not report:find('ERROR'), 'no error:\n' .. report)
    H.check(report:find('OK:? hashline %S+ %(' .. vim.pesc(vim.fn.exepath(H.bin))),
      "the running client's binary reported OK:\n" .. report)
    if has_config then
      H.check(not report:find('WARN'), 'no warning with vim.lsp.enable and no setup{}:\n' .. report)
      H.check(report:find("vim.lsp.enable%('hashline'%) attaches"), 'vim.lsp.enable reported:\n' .. report)
    else
      H.check(report:find('WARN[^\n]*setup{} has not been called'), 'setup{} missing is a warning:\n' .. report)
    end
  end },

  { 'setup-autostart-reuses-the-client', function()
    H.setup()
    local other = H.open(root .. '/other.txt', 'alpha\n')
    H.eq(client_id, require('hashline').client(other).id, 'same client for the same root')
    H.eq(1, #H.compat.get_clients({ name = 'hashline' }), 'one hashline client')
  end },

  { 'checkhealth-clean', function()
    vim.cmd('checkhealth hashline')
    local report = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
    vim.cmd('tabclose')
    H.check(not report:find('ERROR') and not report:find('WARN'), 'no warning or error:\n' .. report)
    H.check(report:find('OK:? client %d+ attached: root ' .. vim.pesc(root)), 'client reported OK:\n' .. report)
  end },
})
