# HASHLINE_STATIC: a `hashline` that runs on any Linux with a new enough glibc. libstdc++ and
# libgcc are linked statically, and the libraries Debian ships static archives of (re2, xxHash,
# OpenSSL's libcrypto while it is used) from those archives, so the binary's only shared
# dependencies are glibc's (libc, libm, ld-linux). The release preset and scripts/release use it;
# the minimum glibc is documented in docs/building.md ("Binaries for any Linux").
option(HASHLINE_STATIC "Link everything but glibc statically (release binaries for any Linux)" OFF)
if(HASHLINE_STATIC)
  add_link_options(-static-libstdc++ -static-libgcc)
  set(OPENSSL_USE_STATIC_LIBS TRUE)
endif()

# hashline_use_static_archive(TARGET NAME): with HASHLINE_STATIC, the imported TARGET links
# libNAME.a (found beside its shared library) instead of the shared library.
function(hashline_use_static_archive target name)
  if(NOT HASHLINE_STATIC)
    return()
  endif()
  find_library(HASHLINE_${name}_ARCHIVE NAMES lib${name}.a REQUIRED)
  set_property(TARGET ${target} PROPERTY INTERFACE_LINK_LIBRARIES
               "${HASHLINE_${name}_ARCHIVE}" Threads::Threads)
  set_property(TARGET ${target} PROPERTY INTERFACE_LINK_DIRECTORIES "")
  set_property(TARGET ${target} PROPERTY INTERFACE_LINK_OPTIONS "")
endfunction()

# HASHLINE_LINK_SYSROOT (with HASHLINE_STATIC): `hashline` is linked against the older glibc in
# this sysroot (scripts/glibc-sysroot: Debian bullseye's 2.31), so it imports no newer symbol
# version; the objects are compiled as always. cmake/glibc_compat.cpp defines the three newer
# glibc symbols the static GCC runtime uses. scripts/release sets it.
set(HASHLINE_LINK_SYSROOT "" CACHE PATH "Link hashline against the glibc of this sysroot (HASHLINE_STATIC)")
function(hashline_link_old_glibc target)
  if(HASHLINE_STATIC AND HASHLINE_LINK_SYSROOT)
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/cmake/glibc_compat.cpp)
    # The driver's own -L (GCC's ../../../<triplet>) would find the host's libc first: the
    # sysroot's start files (-B) and libraries (-L) go before it.
    set(libdir ${HASHLINE_LINK_SYSROOT}/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE})
    # -pthread: before 2.34 the threads are in libpthread (the driver adds it after everything).
    target_link_options(${target} PRIVATE --sysroot=${HASHLINE_LINK_SYSROOT} -B${libdir}/ -L${libdir} -pthread
                        -L${HASHLINE_LINK_SYSROOT}/lib/${CMAKE_LIBRARY_ARCHITECTURE})
  endif()
endfunction()
