// Editor confirmation (issue 9 item 3), through the real binary: agent edits sent with LSP change
// annotations `needsConfirmation: true` when the request or the session asks and the client
// declared changeAnnotationSupport; plain edits otherwise; a declined preview is a refusal that
// records nothing; a confirmation waits on its own (longer) apply timeout.
#include "tests/lsp/support/service_fixture.h"

#include <cstdlib>
#include <gmock/gmock.h>

namespace hashline::test {
namespace {

using json = nlohmann::json;
using ::testing::HasSubstr;

const json kAnnotationClient = {
    {"workspace",
     {{"workspaceEdit",
       {{"documentChanges", true}, {"changeAnnotationSupport", {{"groupsOnLabel", false}}}}}}}};

struct ConfirmSetup {
  json capabilities = kAnnotationClient;
  json init_options{}; // null: none
  const char* confirm_env = nullptr;
  int apply_ms = 2000;
  int confirm_apply_ms = 20000;
  std::vector<std::string> lsp_args = {"lsp", "--log-level", "debug"};
};

class ConfirmEditsTest : public ServiceFixture {
protected:
  void SetUp() override {} // each test starts the server with its own client

  void startWith(const ConfirmSetup& setup) {
    if (client_) {
      client_->shutdownAndExit();
      client_.reset();
    }
    if (root_.empty()) {
      char pattern[] = "/tmp/hashline-confirm-test.XXXXXX";
      root_ = std::filesystem::canonical(::mkdtemp(pattern));
      std::filesystem::create_directories(root_ / ".state");
      std::filesystem::create_directories(root_ / ".run");
    }
    models_.clear();
    ::setenv("HASHLINE_STATE_DIR", (root_ / ".state").c_str(), 1);
    ::setenv("HASHLINE_RUNTIME_DIR", (root_ / ".run").c_str(), 1);
    ::setenv("HASHLINE_APPLY_TIMEOUT_MS", std::to_string(setup.apply_ms).c_str(), 1);
    ::setenv("HASHLINE_CONFIRM_TIMEOUT_MS", "300", 1);
    if (setup.confirm_env)
      ::setenv("HASHLINE_CONFIRM_EDITS", setup.confirm_env, 1);
    else
      ::unsetenv("HASHLINE_CONFIRM_EDITS");
    ::setenv("HASHLINE_CONFIRM_APPLY_TIMEOUT_MS", std::to_string(setup.confirm_apply_ms).c_str(),
             1);
    LspClientOptions options;
    options.args = setup.lsp_args;
    client_ = std::make_unique<LspClient>(options);
    json extra = {{"rootUri", "file://" + root_.string()}};
    if (!setup.init_options.is_null()) extra["initializationOptions"] = setup.init_options;
    client_->initialize(setup.capabilities, extra);
    ::unsetenv("HASHLINE_CONFIRM_EDITS");
    ::unsetenv("HASHLINE_CONFIRM_APPLY_TIMEOUT_MS");
  }

  /// Opens `name` in the editor and lets the agent read it (edits need a read first).
  void openRead(const std::string& name, const std::string& text) {
    open(name, text);
    service("read", {{"uri", uriOf(name)}});
  }

  /// Starts a replace of "beta" in a.txt with `extra` params; returns the request id.
  std::int64_t replaceBeta(json extra = json::object()) {
    json params = {{"uri", uriOf("a.txt")}, {"old", "beta"}, {"new", "BETA"}};
    params.update(extra);
    return startService("replace", params);
  }

  static void expectPlain(const json& apply_params) {
    const json& edit = apply_params["edit"];
    EXPECT_FALSE(edit.contains("changeAnnotations")) << edit.dump();
    for (const json& change : edit["documentChanges"])
      for (const json& text_edit : change["edits"]) {
        EXPECT_FALSE(text_edit.contains("annotationId")) << text_edit.dump();
        EXPECT_EQ(text_edit.size(), 2u) << "only range and newText: " << text_edit.dump();
      }
  }

  /// Every TextEdit is annotated, every id resolves to an annotation that needs confirmation.
  static void expectAnnotated(const json& apply_params) {
    const json& edit = apply_params["edit"];
    ASSERT_TRUE(edit.contains("changeAnnotations")) << edit.dump();
    const json& annotations = edit["changeAnnotations"];
    std::size_t edits = 0;
    for (const json& change : edit["documentChanges"])
      for (const json& text_edit : change["edits"]) {
        ++edits;
        ASSERT_TRUE(text_edit.contains("annotationId")) << text_edit.dump();
        const std::string id = text_edit["annotationId"];
        ASSERT_TRUE(annotations.contains(id)) << "unresolved annotation id " << id;
        const json& annotation = annotations[id];
        EXPECT_EQ(annotation["needsConfirmation"], true);
        EXPECT_FALSE(annotation["label"].get<std::string>().empty());
        EXPECT_THAT(annotation["description"].get<std::string>(), HasSubstr("agent edit"));
      }
    EXPECT_GT(edits, 0u);
  }
};

TEST_F(ConfirmEditsTest, PlainWhenNotAskedEvenIfTheClientSupportsAnnotations) {
  startWith({});
  openRead("a.txt", "alpha\nbeta\ngamma\n");
  std::int64_t id = replaceBeta();
  json request = nextApplyEdit();
  expectPlain(request["params"]);
  EXPECT_EQ(request["params"]["edit"].size(), 1u) << "only documentChanges";
  applyAndConfirm(request);
  json result = finish(id);
  EXPECT_EQ(result["status"], "applied") << result.dump();
  EXPECT_EQ(result["confirmation"], "off");
}

TEST_F(ConfirmEditsTest, RequestConfirmAnnotatesEveryEdit) {
  startWith({});
  openRead("a.txt", "alpha\nbeta\ngamma\nbeta two\n");
  std::int64_t id = startService(
      "replace",
      {{"uri", uriOf("a.txt")},
       {"confirm", true},
       {"edits", {{{"old", "alpha"}, {"new", "ALPHA"}}, {{"old", "beta two"}, {"new", "B2"}}}}});
  json request = nextApplyEdit();
  ASSERT_GE(request["params"]["edit"]["documentChanges"][0]["edits"].size(), 2u);
  expectAnnotated(request["params"]);
  applyAndConfirm(request);
  json result = finish(id);
  EXPECT_EQ(result["status"], "applied") << result.dump();
  EXPECT_EQ(result["confirmation"], "requested");
  EXPECT_EQ(model("a.txt").text, "ALPHA\nbeta\ngamma\nB2\n");
  expectMirrorMatches("a.txt");
}

TEST_F(ConfirmEditsTest, ClientWithoutAnnotationSupportGetsPlainEdits) {
  startWith(ConfirmSetup{.capabilities = json::object()});
  openRead("a.txt", "alpha\nbeta\ngamma\n");
  std::int64_t id = replaceBeta({{"confirm", true}});
  json request = nextApplyEdit();
  expectPlain(request["params"]);
  applyAndConfirm(request);
  json result = finish(id);
  EXPECT_EQ(result["status"], "applied") << result.dump();
  EXPECT_EQ(result["confirmation"], "unsupported");
}

TEST_F(ConfirmEditsTest, InitializationOptionSetsTheSessionDefault) {
  startWith({kAnnotationClient, {{"confirmEdits", true}}});
  openRead("a.txt", "alpha\nbeta\ngamma\n");
  std::int64_t id = replaceBeta();
  json request = nextApplyEdit();
  expectAnnotated(request["params"]);
  applyAndConfirm(request);
  EXPECT_EQ(finish(id)["confirmation"], "requested");

  // The request's own `confirm: false` wins over the session default.
  id = startService(
      "replace", {{"uri", uriOf("a.txt")}, {"old", "gamma"}, {"new", "GAMMA"}, {"confirm", false}});
  request = nextApplyEdit();
  expectPlain(request["params"]);
  applyAndConfirm(request);
  EXPECT_EQ(finish(id)["confirmation"], "off");
}

TEST_F(ConfirmEditsTest, EnvironmentDefaultAndTheClientOptionOverridingIt) {
  startWith({kAnnotationClient, json(), "1"});
  openRead("a.txt", "alpha\nbeta\ngamma\n");
  std::int64_t id = replaceBeta();
  json request = nextApplyEdit();
  expectAnnotated(request["params"]);
  applyAndConfirm(request);
  EXPECT_EQ(finish(id)["confirmation"], "requested");

  startWith({kAnnotationClient, {{"confirmEdits", false}}, "1"});
  openRead("a.txt", "alpha\nbeta\ngamma\n");
  id = replaceBeta();
  request = nextApplyEdit();
  expectPlain(request["params"]);
  applyAndConfirm(request);
  EXPECT_EQ(finish(id)["confirmation"], "off");
}

TEST_F(ConfirmEditsTest, LspConfirmFlagSetsTheSessionDefaultAndStatusShowsIt) {
  ConfirmSetup setup;
  setup.lsp_args = {"lsp", "--confirm", "--log-level", "debug"};
  startWith(setup);
  EXPECT_EQ(service("status", json::object())["confirmation"], "requested");
  openRead("a.txt", "alpha\nbeta\ngamma\n");
  std::int64_t id = replaceBeta();
  json request = nextApplyEdit();
  expectAnnotated(request["params"]);
  applyAndConfirm(request);
  EXPECT_EQ(finish(id)["confirmation"], "requested");

  setup.capabilities = json::object(); // the same flag, a client without annotation support
  startWith(setup);
  EXPECT_EQ(service("status", json::object())["confirmation"], "unsupported");
  startWith({});
  EXPECT_EQ(service("status", json::object())["confirmation"], "off");
}

TEST_F(ConfirmEditsTest, DeclinedPreviewIsARefusalAndRecordsNothing) {
  startWith({});
  openRead("a.txt", "alpha\nbeta\ngamma\n");
  std::int64_t id = replaceBeta({{"confirm", true}});
  json request = nextApplyEdit();
  expectAnnotated(request["params"]);
  client_->respond(request["id"], {{"applied", false}});
  json result = finish(id);
  EXPECT_EQ(result["status"], "refused") << result.dump();
  EXPECT_EQ(result["error"]["code"], "EDITOR_REJECTED");
  EXPECT_THAT(result["error"]["hint"].get<std::string>(), HasSubstr("declined"));
  EXPECT_EQ(result["confirmation"], "requested");
  EXPECT_EQ(model("a.txt").text, "alpha\nbeta\ngamma\n");
  json log = service("log", json::object());
  EXPECT_TRUE(log["ops"].empty()) << log.dump();
  EXPECT_EQ(service("pending", json::object())["count"], 0);

  // Never asked twice: the next applyEdit the editor sees belongs to the next request.
  id = startService("replace", {{"uri", uriOf("a.txt")}, {"old", "gamma"}, {"new", "GAMMA"}});
  request = nextApplyEdit();
  EXPECT_EQ(request["params"]["edit"]["documentChanges"][0]["edits"][0]["newText"], "GAMMA");
  applyAndConfirm(request);
  EXPECT_EQ(finish(id)["status"], "applied");
}

TEST_F(ConfirmEditsTest, AConfirmationWaitsOnItsOwnTimeout) {
  // Neither edit is answered; each times out on the timeout of its kind (the messages name it).
  startWith({kAnnotationClient, json(), nullptr, 300, 900});
  openRead("a.txt", "alpha\nbeta\ngamma\n");
  std::int64_t id = replaceBeta();
  nextApplyEdit();
  json plain = finish(id);
  EXPECT_EQ(plain["error"]["code"], "EDITOR_TIMEOUT") << plain.dump();
  EXPECT_THAT(plain["error"]["message"].get<std::string>(), HasSubstr("within 300 ms"));

  id = replaceBeta({{"confirm", true}});
  nextApplyEdit();
  json confirmed = finish(id);
  EXPECT_EQ(confirmed["error"]["code"], "EDITOR_TIMEOUT") << confirmed.dump();
  EXPECT_THAT(confirmed["error"]["message"].get<std::string>(),
              HasSubstr("within 900 ms (the edit waited for the user's confirmation)"));
}

TEST_F(ConfirmEditsTest, PatchAcrossTwoBuffersAnnotatesEach) {
  startWith({});
  openRead("a.txt", "alpha\nbeta\n");
  openRead("b.txt", "one\ntwo\n");
  std::int64_t id = startService("patch", {{"confirm", true},
                                           {"patch", "*** Begin Patch\n"
                                                     "*** Update File: a.txt\n"
                                                     "@@\n"
                                                     "-beta\n"
                                                     "+BETA\n"
                                                     "*** Update File: b.txt\n"
                                                     "@@\n"
                                                     "-two\n"
                                                     "+TWO\n"
                                                     "*** End Patch\n"}});
  for (int i = 0; i < 2; ++i) {
    json request = nextApplyEdit();
    expectAnnotated(request["params"]);
    applyAndConfirm(request);
  }
  json result = finish(id);
  EXPECT_EQ(result["status"], "applied") << result.dump();
  EXPECT_EQ(result["confirmation"], "requested");
  EXPECT_EQ(model("a.txt").text, "alpha\nBETA\n");
  EXPECT_EQ(model("b.txt").text, "one\nTWO\n");
}

TEST_F(ConfirmEditsTest, RejectAndUndoAskToo) {
  startWith({});
  openRead("a.txt", "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
  std::int64_t id = startService(
      "replace",
      {{"uri", uriOf("a.txt")},
       {"edits", {{{"old", "l2\n"}, {"new", "A2\n"}}, {{"old", "l9\n"}, {"new", "A9\n"}}}}});
  applyAndConfirm(nextApplyEdit());
  ASSERT_EQ(finish(id)["status"], "applied");
  json log = service("log", json::object());
  ASSERT_EQ(log["ops"].size(), 1u);
  const std::string op = std::to_string(log["ops"][0]["op"].get<std::int64_t>());

  // A declined reject changes nothing, and the hunk stays pending.
  id = startService("reject", {{"hunk", op + "#1"}, {"confirm", true}});
  json request = nextApplyEdit();
  expectAnnotated(request["params"]);
  client_->respond(request["id"], {{"applied", false}});
  json declined = finish(id);
  EXPECT_EQ(declined["status"], "refused") << declined.dump();
  EXPECT_EQ(declined["confirmation"], "requested");
  EXPECT_EQ(service("pending", json::object())["count"], 2);

  id = startService("reject", {{"hunk", op + "#1"}, {"confirm", true}});
  request = nextApplyEdit();
  expectAnnotated(request["params"]);
  applyAndConfirm(request);
  json rejected = finish(id);
  EXPECT_EQ(rejected["status"], "applied") << rejected.dump();
  EXPECT_EQ(rejected["confirmation"], "requested");
  EXPECT_EQ(model("a.txt").text, "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nA9\nl10\n");

  id = startService("undo", {{"op", op}, {"confirm", true}});
  request = nextApplyEdit();
  expectAnnotated(request["params"]);
  applyAndConfirm(request);
  EXPECT_EQ(finish(id)["status"], "applied");
  EXPECT_EQ(model("a.txt").text, "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n");
}

TEST_F(ConfirmEditsTest, ConfirmMustBeABoolean) {
  startWith({});
  openRead("a.txt", "alpha\nbeta\n");
  json error = client_->callError(
      "hashline/replace",
      {{"uri", uriOf("a.txt")}, {"old", "beta"}, {"new", "B"}, {"confirm", "yes"}});
  EXPECT_EQ(error["code"], -32602);
  EXPECT_THAT(error["message"].get<std::string>(), HasSubstr("params.confirm"));
}

} // namespace
} // namespace hashline::test
