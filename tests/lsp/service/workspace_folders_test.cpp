// Workspace folders added or removed after initialize (workspace/didChangeWorkspaceFolders),
// through the real binary: the disk backend's confinement follows them, and so does the agent
// socket's discovery file, which is how a CLI finds the sidecar serving a path.
#include "tests/lsp/support/service_fixture.h"

#include <fstream>
#include <gmock/gmock.h>
#include <sstream>

namespace hashline::test {
namespace {

using json = nlohmann::json;

class WorkspaceFoldersTest : public ServiceFixture {
protected:
  void SetUp() override {
    ServiceFixture::SetUp();
    added_ = root_.parent_path() / (root_.filename().string() + "-added");
    std::filesystem::create_directories(added_);
    std::ofstream(added_ / "b.txt", std::ios::binary) << "one\ntwo\n";
  }
  void TearDown() override {
    ServiceFixture::TearDown();
    std::error_code ignored;
    std::filesystem::remove_all(added_, ignored);
  }

  json folder(const std::filesystem::path& path) const {
    return {{"uri", "file://" + path.string()}, {"name", path.filename().string()}};
  }
  void changeFolders(json added, json removed) {
    client_->notify("workspace/didChangeWorkspaceFolders",
                    {{"event", {{"added", std::move(added)}, {"removed", std::move(removed)}}}});
  }
  /// Every discovery file the sidecar published, concatenated.
  std::string discoveryFiles() const {
    std::string all;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root_ / ".run"))
      if (entry.path().extension() == ".json") {
        std::ifstream in(entry.path());
        std::stringstream text;
        text << in.rdbuf();
        all += text.str();
      }
    return all;
  }

  std::filesystem::path added_;
};

TEST_F(WorkspaceFoldersTest, AddedFolderIsServedAndRemovedFolderIsNot) {
  const std::string path = (added_ / "b.txt").string();
  json outside = service("read", {{"path", path}});
  EXPECT_EQ(outside["error"]["code"], "OUTSIDE_WORKSPACE") << outside.dump();
  EXPECT_THAT(discoveryFiles(), ::testing::Not(::testing::HasSubstr(added_.string() + "\"")));

  changeFolders(json::array({folder(added_)}), json::array());
  json read = service("read", {{"path", path}});
  ASSERT_EQ(read["status"], "ok") << read.dump();
  EXPECT_EQ(read["lineCount"], 2);
  json status = service("status", json::object());
  EXPECT_THAT(status["workspaceRoots"], ::testing::Contains(added_.string())) << status.dump();
  EXPECT_THAT(discoveryFiles(), ::testing::HasSubstr(added_.string() + "\""));
  json edited = service(
      "edit",
      {{"path", path},
       {"edits", {{{"op", "replace"}, {"anchor", anchorOf(read, 2)}, {"content", "TWO"}}}}});
  EXPECT_EQ(edited["status"], "applied") << edited.dump();

  // Removing the original root keeps the added one; removing the added one confines again.
  changeFolders(json::array(), json::array({folder(root_)}));
  writeFile("a.txt", "x\n");
  EXPECT_EQ(service("read", {{"path", pathOf("a.txt")}})["error"]["code"], "OUTSIDE_WORKSPACE");
  EXPECT_EQ(service("read", {{"path", path}})["status"], "ok");
  changeFolders(json::array(), json::array({folder(added_)}));
  EXPECT_EQ(service("read", {{"path", path}})["error"]["code"], "OUTSIDE_WORKSPACE");
  std::ifstream in(added_ / "b.txt", std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  EXPECT_EQ(bytes.str(), "one\nTWO\n");
}

TEST_F(WorkspaceFoldersTest, MalformedChangeIsIgnoredAndTheServerLives) {
  client_->notify("workspace/didChangeWorkspaceFolders", {{"event", {{"added", 42}}}});
  client_->notify("workspace/didChangeWorkspaceFolders", json::object());
  changeFolders(json::array({{{"uri", "https://example.com/x"}, {"name", "x"}}}), json::array());
  json status = service("status", json::object());
  EXPECT_EQ(status["workspaceRoots"], json::array({root_.string()})) << status.dump();
}

} // namespace
} // namespace hashline::test
