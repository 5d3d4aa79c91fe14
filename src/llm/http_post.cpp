#include "llm/http_post.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace aoc::llm {

namespace {

void global_init() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) throw std::runtime_error("libcurl failed to initialise");
  });
}

struct Sink {
  std::string* body;
  size_t cap;
  bool overflow = false;
};

size_t on_body(char* data, size_t size, size_t n, void* user) {
  auto* s = static_cast<Sink*>(user);
  const size_t len = size * n;
  if (s->body->size() + len > s->cap) {
    s->overflow = true;
    return 0;  // makes libcurl stop with CURLE_WRITE_ERROR
  }
  s->body->append(data, len);
  return len;
}

size_t on_header(char* data, size_t size, size_t n, void* user) {
  const size_t len = size * n;
  std::string line(data, len);
  static const std::string name = "retry-after:";
  if (line.size() > name.size()) {
    std::string head = line.substr(0, name.size());
    std::transform(head.begin(), head.end(), head.begin(), [](unsigned char c) { return std::tolower(c); });
    if (head == name) {
      std::string v = line.substr(name.size());
      while (!v.empty() && (v.back() == '\r' || v.back() == '\n')) v.pop_back();
      *static_cast<std::string*>(user) = v;
    }
  }
  return len;
}

HttpOutcome::Failure classify(CURLcode c) {
  switch (c) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return HttpOutcome::Failure::Connect;
    case CURLE_OPERATION_TIMEDOUT:
      return HttpOutcome::Failure::Timeout;
    case CURLE_COULDNT_RESOLVE_HOST:
      return HttpOutcome::Failure::Resolve;
    default:
      return HttpOutcome::Failure::Other;
  }
}

long ms(double s) { return static_cast<long>(std::max(1.0, s * 1000.0)); }

}  // namespace

HttpOutcome http_post_json(const std::string& url, const std::string& json_body, const std::string& bearer_token,
                           const HttpPostOptions& opt) {
  global_init();
  HttpOutcome out;
  std::unique_ptr<CURL, void (*)(CURL*)> h(curl_easy_init(), curl_easy_cleanup);
  if (!h) {
    out.failure = HttpOutcome::Failure::Other;
    out.failure_text = "libcurl could not create a handle";
    return out;
  }
  curl_slist* raw = nullptr;
  raw = curl_slist_append(raw, "Content-Type: application/json");
  raw = curl_slist_append(raw, "Accept: application/json");
  // The token is only ever part of this header list, freed below.
  std::string auth;
  if (!bearer_token.empty()) {
    auth = "Authorization: Bearer " + bearer_token;
    raw = curl_slist_append(raw, auth.c_str());
  }
  std::unique_ptr<curl_slist, void (*)(curl_slist*)> headers(raw, curl_slist_free_all);
  Sink sink{&out.body, opt.max_body_bytes};
  char errbuf[CURL_ERROR_SIZE] = {0};

  CURL* c = h.get();
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_POST, 1L);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, json_body.data());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(json_body.size()));
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &out.retry_after);
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM: safe in threads
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, ms(opt.connect_timeout_s));
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, ms(opt.total_timeout_s));
  curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");  // whatever libcurl can decode
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_VERBOSE, 0L);

  const CURLcode rc = curl_easy_perform(c);
  if (rc != CURLE_OK) {
    if (sink.overflow) {
      out.failure = HttpOutcome::Failure::TooLarge;
      out.failure_text = "the answer exceeded " + std::to_string(opt.max_body_bytes) + " bytes";
    } else {
      out.failure = classify(rc);
      out.failure_text = errbuf[0] != '\0' ? std::string(errbuf) : std::string(curl_easy_strerror(rc));
    }
    out.body.clear();
    return out;
  }
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &out.status);
  return out;
}

}  // namespace aoc::llm
