-- Kept for tests/editors/agent-cli, which loads this path: the helpers that lived here are now
-- tests/editors/neovim/common.lua, shared by every Neovim suite.
return dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/../neovim/common.lua')
