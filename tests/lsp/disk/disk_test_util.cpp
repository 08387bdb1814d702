// Test helpers (see disk_test_util.h) and the global environment that points the runtime and
// state directories of every disk test process at private temp directories.
#include "disk_test_util.h"

#include "lsp/disk/temp_file.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace hashline::disk::testing {

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern =
      std::string(base && base[0] == '/' ? base : "/tmp") + "/hashline-disk-XXXXXX";
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  char real[PATH_MAX];
  if (!::realpath(pattern.c_str(), real)) throw std::runtime_error("realpath failed");
  path_ = real;
}

TempDir::~TempDir() {
  std::error_code ignored;
  // Tests make read-only directories; open everything up again so removal works.
  for (auto it = std::filesystem::recursive_directory_iterator(path_, ignored);
       it != std::filesystem::recursive_directory_iterator(); it.increment(ignored))
    if (it->is_directory(ignored) && !it->is_symlink(ignored)) ::chmod(it->path().c_str(), 0700);
  ::chmod(path_.c_str(), 0700);
  std::filesystem::remove_all(path_, ignored);
}

void writeRaw(const std::string& path, std::string_view bytes, mode_t mode) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
  if (fd < 0) throw std::runtime_error("open " + path + " failed");
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t put = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (put <= 0) {
      ::close(fd);
      throw std::runtime_error("write " + path + " failed");
    }
    done += static_cast<std::size_t>(put);
  }
  ::fchmod(fd, mode);
  ::close(fd);
}

std::string readRaw(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("open " + path + " failed");
  std::string bytes;
  char buffer[65536];
  while (true) {
    ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0) {
      ::close(fd);
      throw std::runtime_error("read " + path + " failed");
    }
    if (got == 0) break;
    bytes.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return bytes;
}

std::vector<std::string> listDir(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> tempLitter(const std::string& dir) {
  std::vector<std::string> litter;
  for (const auto& name : listDir(dir))
    if (isTempName(name)) litter.push_back(name);
  return litter;
}

mode_t fileMode(const std::string& path) {
  struct stat file_stat {};
  if (::stat(path.c_str(), &file_stat) != 0) throw std::runtime_error("stat " + path + " failed");
  return file_stat.st_mode & 07777;
}

ScopedEnv::ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
  if (const char* old = std::getenv(name)) old_ = old;
  if (value)
    ::setenv(name, value->c_str(), 1);
  else
    ::unsetenv(name);
}

ScopedEnv::~ScopedEnv() {
  if (old_)
    ::setenv(name_.c_str(), old_->c_str(), 1);
  else
    ::unsetenv(name_.c_str());
}

int waitExitCode(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

int runInChild(const std::function<int()>& body) {
  pid_t pid = ::fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    int code = 99;
    try {
      code = body();
    } catch (...) {
      code = 98;
    }
    ::_exit(code);
  }
  return waitExitCode(pid);
}

int runInChildAsNobody(const std::function<int()>& body) {
  return runInChild([&] {
    if (::geteuid() == 0) {
      if (::setgroups(0, nullptr) != 0 || ::setresgid(65534, 65534, 65534) != 0 ||
          ::setresuid(65534, 65534, 65534) != 0)
        return 97;
    }
    return body();
  });
}

namespace {

// Every disk test process gets private runtime and state directories (lock files live there).
class DiskTestEnvironment : public ::testing::Environment {
public:
  void SetUp() override {
    dir_ = std::make_unique<TempDir>();
    ::setenv("HASHLINE_RUNTIME_DIR", (*dir_ / "runtime").c_str(), 1);
    ::setenv("HASHLINE_STATE_DIR", (*dir_ / "state").c_str(), 1);
  }
  void TearDown() override { dir_.reset(); }

private:
  std::unique_ptr<TempDir> dir_;
};

[[maybe_unused]] ::testing::Environment* const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new DiskTestEnvironment);

} // namespace

} // namespace hashline::disk::testing
