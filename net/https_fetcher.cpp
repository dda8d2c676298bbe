#include "net/https_fetcher.h"

#include "core/ip_address.h"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

namespace sightline::net {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::ip::tcp;
using core::Error;
using core::ErrorCode;
using core::Result;

struct Target {
  std::string host, port = "443", path;
};

std::optional<Target> ParseHttpsUrl(std::string_view url) {
  constexpr std::string_view kScheme = "https://";
  if (!url.starts_with(kScheme)) return std::nullopt;
  url.remove_prefix(kScheme.size());
  const auto slash = url.find('/');
  std::string_view authority = url.substr(0, slash);
  Target out;
  out.path = slash == std::string_view::npos ? "/" : std::string(url.substr(slash));
  if (const auto query = out.path.find_first_of("?#"); query != std::string::npos) {
    out.path.resize(query);
  }
  if (authority.empty() || authority.find('@') != std::string_view::npos) return std::nullopt;
  if (authority.front() == '[') {  // [v6]:port
    const auto close = authority.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    out.host = std::string(authority.substr(1, close - 1));
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return std::nullopt;
      out.port = std::string(authority.substr(close + 2));
    }
  } else if (const auto colon = authority.rfind(':'); colon != std::string_view::npos) {
    out.host = std::string(authority.substr(0, colon));
    out.port = std::string(authority.substr(colon + 1));
  } else {
    out.host = std::string(authority);
  }
  if (out.host.empty() || out.port.empty() ||
      out.port.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return out;
}

bool Accepted(const std::vector<std::string>& media_types, std::string_view type) {
  if (media_types.empty()) return true;
  type = type.substr(0, type.find(';'));
  while (!type.empty() && type.back() == ' ') type.remove_suffix(1);
  return std::find(media_types.begin(), media_types.end(), type) != media_types.end();
}

}  // namespace

struct HttpsFetcher::Impl {
  using Done = std::function<void(Result<std::string>)>;
  struct Queued {
    std::uint64_t id;
    std::string url;
  };

  explicit Impl(HttpsFetcherOptions o) : options(std::move(o)), tls(asio::ssl::context::tls_client) {
    tls.set_default_verify_paths();
    if (!options.ca_file.empty()) tls.load_verify_file(options.ca_file);
    tls.set_verify_mode(asio::ssl::verify_peer);
  }

  // `addresses`: the host's, resolved already (through options.resolver); empty: resolve here.
  // GCC 12 reports -Wmismatched-new-delete on Asio's coroutine frames of this signature; the
  // frame is allocated and freed by Asio's own awaitable_frame operators (a false positive).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
  asio::awaitable<Result<std::string>> Get(std::string url, std::vector<std::string> addresses) {
    const auto target = ParseHttpsUrl(url);
    if (!target) co_return Error(ErrorCode::kValInvalidParameter, "Not an https URL.");
    beast::error_code ec;
    if (addresses.empty()) {
      tcp::resolver resolver(context);
      auto results = co_await resolver.async_resolve(
          target->host, target->port, asio::redirect_error(asio::use_awaitable, ec));
      if (ec) co_return Error(ErrorCode::kUnavailable, "Cannot resolve the directory's host.");
      for (const auto& entry : results) addresses.push_back(entry.endpoint().address().to_string());
    }
    const auto port = static_cast<unsigned short>(std::stoi(target->port));
    std::optional<tcp::endpoint> endpoint;
    for (const std::string& text : addresses) {
      const auto address = core::IpAddress::Parse(text);
      if (address && (options.allow_private_addresses || address->IsGlobal())) {
        endpoint = tcp::endpoint(asio::ip::make_address(text, ec), port);
        if (!ec) break;
        endpoint.reset();
      }
    }
    if (!endpoint) co_return Error(ErrorCode::kUnavailable, "The directory's host is not public.");
    beast::ssl_stream<beast::tcp_stream> stream(context, tls);
    beast::get_lowest_layer(stream).expires_after(options.timeout);
    co_await beast::get_lowest_layer(stream).async_connect(
        *endpoint, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return Error(ErrorCode::kUnavailable, "Cannot connect to the directory's host.");
    SSL_set_tlsext_host_name(stream.native_handle(), target->host.c_str());
    stream.set_verify_callback(asio::ssl::host_name_verification(target->host));
    co_await stream.async_handshake(asio::ssl::stream_base::client,
                                    asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return Error(ErrorCode::kUnavailable, "TLS with the directory's host failed.");
    http::request<http::empty_body> request{http::verb::get, target->path, 11};
    request.set(http::field::host, target->port == "443" ? target->host
                                                         : target->host + ":" + target->port);
    request.set(http::field::accept, options.media_types.empty() ? "*/*" : options.media_types[0]);
    request.set(http::field::user_agent, "Sightline");
    co_await http::async_write(stream, request, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return Error(ErrorCode::kUnavailable, "Sending the directory request failed.");
    beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.body_limit(options.max_bytes);
    co_await http::async_read(stream, buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return Error(ErrorCode::kUnavailable, "Reading the directory failed.");
    auto& response = parser.get();
    if (response.result() != http::status::ok) {  // redirects are not followed
      co_return Error(ErrorCode::kUnavailable, "The directory answered " +
                                                   std::to_string(response.result_int()) + ".");
    }
    if (!Accepted(options.media_types, response[http::field::content_type])) {
      co_return Error(ErrorCode::kUnavailable, "The answer has an unexpected media type.");
    }
    co_return std::move(response.body());
  }
#pragma GCC diagnostic pop

  // Starts fetch `id`: its host resolved first when there is a resolver and it is a name.
  void Begin(std::uint64_t id, const std::string& url) {
    const auto target = ParseHttpsUrl(url);
    const bool literal = target && core::IpAddress::Parse(target->host).has_value();
    if (!options.resolver || !target || literal) {
      return Spawn(id, url,
                   literal ? std::vector<std::string>{target->host} : std::vector<std::string>{});
    }
    options.resolver->Forward(target->host, [guard = guard, id, url](detection::DnsAnswer answer) {
      std::lock_guard lock(guard->mutex);
      Impl* impl = guard->impl;
      if (impl == nullptr) return;  // stopped: Stop() has answered this fetch
      if (answer.status != detection::DnsAnswer::Status::kOk || answer.values.empty()) {
        // Answered on the fetcher's thread, like every fetch, never under the guard's lock.
        return asio::post(impl->context, [impl, id] {
          impl->Finish(id, Error(ErrorCode::kUnavailable, "Cannot resolve the directory's host."));
        });
      }
      impl->Spawn(id, url, std::move(answer.values));
    });
  }

  void Spawn(std::uint64_t id, const std::string& url, std::vector<std::string> addresses) {
    asio::co_spawn(context, Get(url, std::move(addresses)),
                   [this, id](std::exception_ptr failure, Result<std::string> body) {
                     if (failure) body = Error(ErrorCode::kUnavailable, "Fetch failed.");
                     Finish(id, std::move(body));
                   });
  }

  // Fetch `id` is over: its slot goes to the next queued fetch, then its caller hears back.
  void Finish(std::uint64_t id, Result<std::string> result) {
    Done done;
    std::optional<Queued> next;
    {
      std::lock_guard lock(mutex);
      if (auto node = unanswered.extract(id)) done = std::move(node.mapped());
      if (!stopped && !queue.empty()) {
        next = std::move(queue.front());
        queue.pop_front();
      } else {
        --active;
      }
    }
    if (next) Begin(next->id, next->url);
    if (done) done(std::move(result));
  }

  HttpsFetcherOptions options;
  asio::ssl::context tls;
  asio::io_context context;
  asio::executor_work_guard<asio::io_context::executor_type> work{context.get_executor()};
  std::thread thread;

  // Admission, under `mutex`: every fetch accepted and not yet answered (by id, so Stop() can
  // answer those abandoned), the fetches waiting for a slot, and the slots in use.
  std::mutex mutex;
  std::uint64_t next_id = 0;
  std::map<std::uint64_t, Done> unanswered;
  std::deque<Queued> queue;
  int active = 0;
  bool stopped = false;

  // What a resolver callback may still reach: this, until Stop() says otherwise (the resolver
  // outlives the fetcher and answers pending lookups when it is destroyed).
  struct Guard {
    std::mutex mutex;
    Impl* impl = nullptr;
  };
  std::shared_ptr<Guard> guard = std::make_shared<Guard>();
};

HttpsFetcher::HttpsFetcher(HttpsFetcherOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {
  impl_->guard->impl = impl_.get();
  impl_->thread = std::thread([impl = impl_.get()] { impl->context.run(); });
}

HttpsFetcher::~HttpsFetcher() { Stop(); }

void HttpsFetcher::Stop() {
  {
    std::lock_guard lock(impl_->guard->mutex);
    if (impl_->guard->impl == nullptr) return;  // stopped already
    impl_->guard->impl = nullptr;
  }
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stopped = true;
    impl_->queue.clear();
  }
  impl_->work.reset();
  impl_->context.stop();  // fetches under way are abandoned, not waited for (shutdown is prompt)
  impl_->thread.join();
  std::map<std::uint64_t, Impl::Done> abandoned;
  {
    std::lock_guard lock(impl_->mutex);
    abandoned.swap(impl_->unanswered);
  }
  for (auto& [id, done] : abandoned) {
    done(Error(ErrorCode::kUnavailable, "The fetch was abandoned: the fetcher stopped."));
  }
}

void HttpsFetcher::Fetch(const std::string& url, std::function<void(Result<std::string>)> done) {
  std::unique_lock lock(impl_->mutex);
  const bool slot_free = impl_->active < impl_->options.max_in_flight;
  if (impl_->stopped || (!slot_free && impl_->queue.size() >= impl_->options.max_queued)) {
    const std::string why =
        impl_->stopped ? "The fetcher has stopped."
                       : "Too many fetches waiting (" + std::to_string(impl_->queue.size()) +
                             " queued behind " + std::to_string(impl_->options.max_in_flight) +
                             " under way); try again later.";
    lock.unlock();
    return done(Error(ErrorCode::kUnavailable, why));
  }
  const std::uint64_t id = impl_->next_id++;
  impl_->unanswered.emplace(id, std::move(done));
  if (!slot_free) return impl_->queue.push_back({id, url});
  ++impl_->active;
  lock.unlock();
  impl_->Begin(id, url);
}

}  // namespace sightline::net
