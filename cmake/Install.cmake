# Install layout and the Debian package: `cmake --install <build> --prefix P [--strip]` puts the
# binary in P/bin, the Neovim plugin where Neovim's packpath finds it, the man page and shell
# completions in their standard places; `cpack -G DEB` packages the same tree.
include(GNUInstallDirs)

install(TARGETS hashline RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Neovim loads every pack/*/start/* under each packpath entry; share/nvim/site is on the default
# packpath of a system Neovim for /usr and /usr/local.
install(DIRECTORY editors/nvim/lua editors/nvim/plugin editors/nvim/doc
        DESTINATION ${CMAKE_INSTALL_DATADIR}/nvim/site/pack/hashline/start/hashline)

# pi's extension (`hashline setup pi` finds it at BIN/../share/hashline/pi/hashline.ts).
install(FILES editors/pi/hashline.ts DESTINATION ${CMAKE_INSTALL_DATADIR}/hashline/pi)

install(FILES docs/man/hashline.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

install(FILES editors/shell/hashline.bash DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME hashline)
install(FILES editors/shell/_hashline DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)
install(FILES editors/shell/hashline.fish
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)

# --- Debian package ------------------------------------------------------------------------
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "hashline")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "hashline maintainers <hashline@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "LSP sidecar that lets AI agents edit live editor buffers through verified line anchors")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
# dpkg-shlibdeps computes Depends (libre2, libstdc++6, libc6, ...) from the binary.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
include(CPack)
