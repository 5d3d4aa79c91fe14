// A real chat-completions server for the LLM tests: cpp-httplib on 127.0.0.1 with an
// ephemeral port, answering POST /v1/chat/completions with scripted replies (a status,
// a completion's text, a raw body, a Retry-After header, a delay to hang past a
// client's timeout). It records every request body and Authorization header.
#pragma once
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace aoc::llm::testing {

struct Reply {
  int status = 200;
  std::string content;      // a completion with this text (when body is empty)
  std::string body;         // sent as is instead (malformed JSON, error objects)
  std::string retry_after;  // Retry-After header
  double delay_s = 0;       // wait before answering
  std::string finish_reason = "stop";
  bool usage = true;        // include a usage object
};

inline Reply answer(std::string content) {
  Reply r;
  r.content = std::move(content);
  return r;
}

class ChatServer {
 public:
  ChatServer() {
    server_.Post("/v1/chat/completions", [this](const httplib::Request& req, httplib::Response& res) {
      handle(req, res);
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (int i = 0; i < 500 && !server_.is_running(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ~ChatServer() { stop(); }
  ChatServer(const ChatServer&) = delete;
  ChatServer& operator=(const ChatServer&) = delete;

  void stop() {
    stopping_ = true;
    if (thread_.joinable()) {
      server_.stop();
      thread_.join();
    }
  }

  int port() const { return port_; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

  // Replies used in order; after them, `fallback` (or the handler when set).
  void script(std::vector<Reply> replies) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& r : replies) queue_.push_back(std::move(r));
  }
  void set_fallback(Reply r) {
    std::lock_guard<std::mutex> lock(mu_);
    fallback_ = std::move(r);
  }
  // Computes the reply from the request body when the script is used up.
  void set_handler(std::function<Reply(const nlohmann::json&)> h) {
    std::lock_guard<std::mutex> lock(mu_);
    handler_ = std::move(h);
  }

  size_t request_count() const {
    std::lock_guard<std::mutex> lock(mu_);
    return bodies_.size();
  }
  std::vector<nlohmann::json> requests() const {
    std::lock_guard<std::mutex> lock(mu_);
    return bodies_;
  }
  std::vector<std::string> authorization_headers() const {
    std::lock_guard<std::mutex> lock(mu_);
    return auth_;
  }
  int max_in_flight() const { return max_in_flight_; }

 private:
  void handle(const httplib::Request& req, httplib::Response& res) {
    const int now = ++in_flight_;
    int seen = max_in_flight_.load();
    while (now > seen && !max_in_flight_.compare_exchange_weak(seen, now)) {
    }
    Reply r;
    nlohmann::json body = nlohmann::json::parse(req.body, nullptr, false);
    {
      std::lock_guard<std::mutex> lock(mu_);
      bodies_.push_back(body);
      auth_.push_back(req.get_header_value("Authorization"));
      if (!queue_.empty()) {
        r = queue_.front();
        queue_.pop_front();
      } else if (handler_) {
        r = handler_(body);
      } else {
        r = fallback_;
      }
    }
    // Sleep in small steps so stop() is never held up by a hanging reply.
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(r.delay_s);
    while (!stopping_ && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    res.status = r.status;
    if (!r.retry_after.empty()) res.set_header("Retry-After", r.retry_after);
    if (!r.body.empty()) {
      res.set_content(r.body, "application/json");
    } else {
      size_t prompt_chars = 0;
      if (body.is_object() && body.contains("messages"))
        for (const auto& m : body["messages"]) prompt_chars += m.value("content", "").size();
      nlohmann::json out = {
          {"id", "chatcmpl-test"},
          {"object", "chat.completion"},
          {"model", body.is_object() ? body.value("model", "") : ""},
          {"choices",
           {{{"index", 0},
             {"message", {{"role", "assistant"}, {"content", r.content}}},
             {"finish_reason", r.finish_reason}}}}};
      if (r.usage)
        out["usage"] = {{"prompt_tokens", static_cast<int64_t>(prompt_chars / 4 + 1)},
                        {"completion_tokens", static_cast<int64_t>(r.content.size() / 4 + 1)}};
      res.set_content(out.dump(), "application/json");
    }
    --in_flight_;
  }

  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  mutable std::mutex mu_;
  std::deque<Reply> queue_;
  Reply fallback_ = answer("ok");
  std::function<Reply(const nlohmann::json&)> handler_;
  std::vector<nlohmann::json> bodies_;
  std::vector<std::string> auth_;
  std::atomic<int> in_flight_{0};
  std::atomic<int> max_in_flight_{0};
};

}  // namespace aoc::llm::testing
