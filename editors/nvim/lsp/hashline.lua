-- The hashline server for Neovim 0.11+'s LSP configuration (:help lsp-config): with the plugin
-- on 'runtimepath', `vim.lsp.enable('hashline')` attaches the sidecar to every file buffer that
-- gets a filetype, and `vim.lsp.config('hashline', { cmd = {...} })` overrides any field.
-- The fields come from the plugin (require('hashline.attach').lsp_config()), so this is the same
-- client as require('hashline').setup{}'s autostart, which also attaches files without a filetype.
return require('hashline.attach').lsp_config()
