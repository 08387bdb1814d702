// Linked into `hashline` only when it is linked against an older glibc (HASHLINE_LINK_SYSROOT,
// cmake/StaticRuntime.cmake): the three glibc symbols newer than 2.31 that the statically linked
// GCC 12 runtime asks for, defined here so the binary does not import them.
//   __libc_single_threaded (2.32, libstdc++): 0 means "maybe threaded" — shared_ptr and friends
//       always use atomic operations (what they do anyway once a thread has started).
//   arc4random (2.36, libstdc++'s std::random_device): the kernel's getrandom, as glibc does.
//   _dl_find_object (2.35, libgcc's unwinder): the loaded object holding an address and its
//       PT_GNU_EH_FRAME, found with dl_iterate_phdr (what the unwinder used before 2.35).
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <dlfcn.h>
#include <link.h>
#include <sys/random.h>

extern "C" {

char __libc_single_threaded = 0;

uint32_t arc4random(void) noexcept {
  uint32_t value = 0;
  std::size_t have = 0;
  while (have < sizeof value) {
    ssize_t got = getrandom(reinterpret_cast<char*>(&value) + have, sizeof value - have, 0);
    if (got > 0)
      have += static_cast<std::size_t>(got);
    else if (got < 0 && errno != EINTR)
      break; // no getrandom (Linux < 3.17): nothing better here
  }
  return value;
}

int _dl_find_object(void* address, struct dl_find_object* result) noexcept {
  struct Search {
    std::uintptr_t pc;
    struct dl_find_object* out;
    bool found;
  } search{reinterpret_cast<std::uintptr_t>(address), result, false};
  dl_iterate_phdr(
      [](struct dl_phdr_info* info, std::size_t, void* data) -> int {
        auto* s = static_cast<Search*>(data);
        std::uintptr_t low = UINTPTR_MAX, high = 0;
        bool holds = false;
        const void* eh_frame = nullptr;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& segment = info->dlpi_phdr[i];
          std::uintptr_t start = info->dlpi_addr + segment.p_vaddr;
          if (segment.p_type == PT_LOAD) {
            std::uintptr_t end = start + segment.p_memsz;
            if (start < low) low = start;
            if (end > high) high = end;
            if (s->pc >= start && s->pc < end) holds = true;
          } else if (segment.p_type == PT_GNU_EH_FRAME) {
            eh_frame = reinterpret_cast<const void*>(start);
          }
        }
        if (!holds) return 0;
        *s->out = {};
        s->out->dlfo_map_start = reinterpret_cast<void*>(low);
        s->out->dlfo_map_end = reinterpret_cast<void*>(high);
        s->out->dlfo_eh_frame = const_cast<void*>(eh_frame);
        s->found = true;
        return 1;
      },
      &search);
  return search.found ? 0 : -1;
}

} // extern "C"
