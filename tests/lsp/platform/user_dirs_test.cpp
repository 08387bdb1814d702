// platform::homeDirectory, defaultUserRuntimeBase and applicationConfigBase follow the
// environment and the OS's layout.
#include "lsp/platform/user_dirs.h"

#include <cstdlib>
#include <gtest/gtest.h>
#include <optional>
#include <string>
#include <unistd.h>

namespace hashline::platform {
namespace {

// Sets an environment variable for one test and restores it after.
class ScopedEnv {
public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(UserDirs, HomeIsAnAbsoluteHomeElseThePasswordEntry) {
  {
    ScopedEnv home("HOME", "/somewhere/home");
    EXPECT_EQ(homeDirectory(), "/somewhere/home");
  }
  ScopedEnv relative("HOME", "relative/home");
  std::string fallback = homeDirectory();
  EXPECT_FALSE(fallback.empty());
  EXPECT_EQ(fallback.front(), '/');
}

TEST(UserDirs, RuntimeBaseIsPerUser) {
#if defined(__linux__)
  EXPECT_EQ(defaultUserRuntimeBase(), "/run/user/" + std::to_string(::geteuid()));
#else
  EXPECT_FALSE(defaultUserRuntimeBase().empty());
#endif
}

TEST(UserDirs, ApplicationConfigBaseFollowsXdgOnLinux) {
#if defined(__APPLE__)
  EXPECT_EQ(applicationConfigBase("/Users/u"), "/Users/u/Library/Application Support");
#else
  {
    ScopedEnv xdg("XDG_CONFIG_HOME", "/xdg/config");
    EXPECT_EQ(applicationConfigBase("/home/u"), "/xdg/config");
  }
  ScopedEnv unset("XDG_CONFIG_HOME", nullptr);
  EXPECT_EQ(applicationConfigBase("/home/u"), "/home/u/.config");
#endif
}

} // namespace
} // namespace hashline::platform
