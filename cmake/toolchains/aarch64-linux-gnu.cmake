# Cross build for Linux arm64 with Debian's cross toolchain (g++-aarch64-linux-gnu), the
# libraries from a private sysroot of Debian's arm64 .debs (scripts/arm64-sysroot prints its path;
# the host's packages are never touched), and the tests run under qemu-user: binfmt_misc is not
# there in containers, so CMAKE_CROSSCOMPILING_EMULATOR starts every test binary and the tests
# that start `hashline` get a launcher script (tests/CMakeLists.txt). scripts/cross-arm64 uses it.
#
#   cmake -B build-arm64 -G Ninja --toolchain cmake/toolchains/aarch64-linux-gnu.cmake \
#         -DHASHLINE_ARM64_SYSROOT="$(scripts/arm64-sysroot)"
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

if(NOT HASHLINE_ARM64_SYSROOT)
  set(HASHLINE_ARM64_SYSROOT "$ENV{HASHLINE_ARM64_SYSROOT}")
endif()
if(NOT HASHLINE_ARM64_SYSROOT)
  set(HASHLINE_ARM64_SYSROOT "$ENV{HOME}/.cache/hashline/arm64-sysroot")
endif()
if(NOT EXISTS "${HASHLINE_ARM64_SYSROOT}/usr/lib/aarch64-linux-gnu")
  message(FATAL_ERROR "no arm64 sysroot at ${HASHLINE_ARM64_SYSROOT}: run scripts/arm64-sysroot")
endif()
# Try-compiles inherit these (they run in their own projects).
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES HASHLINE_ARM64_SYSROOT)

# glibc, libstdc++ and the compiler's headers come from the cross toolchain (/usr/aarch64-linux-gnu);
# the libraries' headers, archives and CMake/pkg-config files from the sysroot.
set(CMAKE_FIND_ROOT_PATH "${HASHLINE_ARM64_SYSROOT}" /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_CXX_FLAGS_INIT "-isystem ${HASHLINE_ARM64_SYSROOT}/usr/include/aarch64-linux-gnu -isystem ${HASHLINE_ARM64_SYSROOT}/usr/include")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-L${HASHLINE_ARM64_SYSROOT}/usr/lib/aarch64-linux-gnu")
set(ENV{PKG_CONFIG_LIBDIR} "${HASHLINE_ARM64_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${HASHLINE_ARM64_SYSROOT}")

# qemu-user runs the cross toolchain's dynamic loader, which loads the program and its glibc from
# /usr/aarch64-linux-gnu/lib. Not `qemu -L /usr/aarch64-linux-gnu`: -L redirects every absolute
# path that also exists under that directory, and once a program creates one there (a /tmp
# directory) later runs see /tmp split between two places (atomic writes failed that way).
find_program(HASHLINE_QEMU_AARCH64 qemu-aarch64-static qemu-aarch64 REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR "${HASHLINE_QEMU_AARCH64};/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1;--library-path;/usr/aarch64-linux-gnu/lib")
