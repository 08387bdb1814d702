// TempDir: a fresh directory under the system's temp directory ($TMPDIR, else /tmp) for one test,
// its canonical path, removed with everything in it when the TempDir goes.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace hashline::test {

class TempDir {
public:
  /// `<temp>/<prefix>-XXXXXX`.
  explicit TempDir(const std::string& prefix = "hashline-test") {
    std::string pattern = std::filesystem::temp_directory_path() / (prefix + "-XXXXXX");
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed: " + pattern);
    path_ = std::filesystem::canonical(pattern).string();
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

private:
  std::string path_;
};

} // namespace hashline::test
