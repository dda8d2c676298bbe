// PostgreSQL backend over libpqxx 6.4: a lazily filled pool of connections, each statement
// prepared once per connection. Writes run in READ COMMITTED transactions; reads in READ ONLY
// REPEATABLE READ transactions, so every statement of a read sees one snapshot, as on SQLite (a
// report lists the current rollup blocks, then reads their rows: under READ COMMITTED a rebuild
// committed in between left it reading a deleted block, days missing). Single statements
// (ReadOne, WriteOne) run in autocommit: no BEGIN/COMMIT round trips on the hot paths.
#include "storage/store.h"
#include "storage/postgres/pg_error.h"

#include <pqxx/pqxx>

#include <array>
#include <condition_variable>
#include <mutex>
#include <unordered_set>

namespace sightline::storage {
namespace {

using core::Error;
using core::ErrorCode;
using core::Result;

// BYTEA travels as text in its hex form ("\\x0a1b…"), like every other parameter.
constexpr pqxx::oid kByteaOid = 17;

std::string ByteaText(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string text = "\\x";
  text.reserve(2 + bytes.size() * 2);
  for (unsigned char c : bytes) {
    text += kHex[c >> 4];
    text += kHex[c & 15];
  }
  return text;
}

// Reports read megabytes of visitor sketches as hex text: one lookup per character pair, in a
// 64 KiB table indexed by both characters (twice as fast as a lookup per character).
const std::vector<std::uint8_t>& HexPairValues() {
  static const std::vector<std::uint8_t> table = [] {
    std::array<int, 256> digit{};
    digit.fill(0);
    for (int c = '0'; c <= '9'; ++c) digit[c] = c - '0';
    for (int c = 'a'; c <= 'f'; ++c) digit[c] = c - 'a' + 10;
    for (int c = 'A'; c <= 'F'; ++c) digit[c] = c - 'A' + 10;
    std::vector<std::uint8_t> values(1 << 16);
    for (int high = 0; high < 256; ++high) {
      for (int low = 0; low < 256; ++low) {
        values[high << 8 | low] = static_cast<std::uint8_t>(digit[high] << 4 | digit[low]);
      }
    }
    return values;
  }();
  return table;
}

std::string BytesOfByteaText(std::string_view text) {
  if (text.size() < 2 || text.substr(0, 2) != "\\x") return std::string(text);
  std::string bytes((text.size() - 2) / 2, '\0');
  const auto* hex = reinterpret_cast<const unsigned char*>(text.data() + 2);
  const std::uint8_t* pairs = HexPairValues().data();
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = static_cast<char>(pairs[hex[2 * i] << 8 | hex[2 * i + 1]]);
  }
  return bytes;
}

class PgConnection final : public SqlSession {
 public:
  explicit PgConnection(const std::string& url) : connection_(url) {
    // Every statement Sightline runs reads an index range of rollups or a few rows; starting
    // parallel workers costs several milliseconds each time and the planner, misjudging the
    // rows of a union of rollup periods, would often do it (docs/performance.md).
    pqxx::nontransaction tx(connection_);
    tx.exec("SET max_parallel_workers_per_gather = 0");
  }

  Dialect dialect() const override { return Dialect::kPostgres; }
  using SqlSession::Execute;  // keep the initializer-list conveniences visible
  using SqlSession::Query;
  bool healthy() const { return healthy_ && connection_.is_open(); }
  pqxx::connection& raw() { return connection_; }
  void Begin(pqxx::transaction_base* tx) { tx_ = tx; }
  void MarkBroken() { healthy_ = false; }

  Result<std::vector<SqlRow>> Query(std::string_view sql,
                                    std::span<const SqlValue> params) override {
    return Rows(Run(sql, params, /*prepare=*/true));
  }

  Result<std::vector<SqlRow>> QueryOnce(std::string_view sql,
                                        std::span<const SqlValue> params) override {
    return Rows(Run(sql, params, /*prepare=*/false));
  }

  Result<std::int64_t> Execute(std::string_view sql, std::span<const SqlValue> params) override {
    auto result = Run(sql, params, /*prepare=*/true);
    if (!result) return result.error();
    return static_cast<std::int64_t>(result->affected_rows());
  }

  Result<void> ExecuteScript(std::string_view sql) override {
    try {
      tx_->exec(std::string(sql));
      return {};
    } catch (const std::exception& e) {
      return Fail(e, "script");
    }
  }

 private:
  static Result<std::vector<SqlRow>> Rows(Result<pqxx::result> result) {
    if (!result) return result.error();
    std::vector<SqlRow> rows;
    rows.reserve(result->size());
    for (const auto& row : *result) {
      std::vector<SqlValue> values;
      values.reserve(row.size());
      for (const auto& field : row) {
        if (field.is_null()) {
          values.emplace_back(nullptr);
        } else if (field.type() == kByteaOid) {
          values.emplace_back(BytesOfByteaText(std::string_view(field.c_str(), field.size())));
        } else {
          values.emplace_back(std::string(field.c_str(), field.size()));
        }
      }
      rows.emplace_back(std::move(values));
    }
    return rows;
  }

  Error Fail(const std::exception& e, std::string_view what) {
    Error error = PgError(e, what);
    if (error.code() == ErrorCode::kStorageUnavailable) healthy_ = false;
    return error;
  }

  const std::string& Prepared(std::string_view sql) {
    std::string name = "s" + std::to_string(std::hash<std::string_view>{}(sql));
    auto [it, inserted] = prepared_.insert(std::move(name));
    if (inserted) connection_.prepare(*it, std::string(sql));
    return *it;
  }

  // `prepare`: keep the statement prepared on this connection (the repository's fixed
  // statements); otherwise send it with its parameters as a one-off.
  Result<pqxx::result> Run(std::string_view sql, std::span<const SqlValue> params, bool prepare) {
    // Every value travels as text with an unspecified type, so the server infers each
    // parameter's type from the statement, exactly as for a literal.
    std::vector<std::string> texts(params.size());
    std::vector<const char*> pointers(params.size(), nullptr);
    for (std::size_t i = 0; i < params.size(); ++i) {
      const SqlValue& value = params[i];
      if (std::holds_alternative<std::nullptr_t>(value)) continue;
      if (auto v = std::get_if<std::int64_t>(&value)) texts[i] = std::to_string(*v);
      else if (auto d = std::get_if<double>(&value)) texts[i] = pqxx::to_string(*d);
      else if (auto blob = std::get_if<SqlBlob>(&value)) texts[i] = ByteaText(blob->bytes);
      else texts[i] = std::get<std::string>(value);
      pointers[i] = texts[i].c_str();
    }
    try {
      if (!prepare) {
        return tx_->exec_params(std::string(sql), pqxx::prepare::make_dynamic_params(pointers));
      }
      const std::string& name = Prepared(sql);
      return tx_->exec_prepared(name, pqxx::prepare::make_dynamic_params(pointers));
    } catch (const std::exception& e) {
      return Fail(e, "statement");
    }
  }

  pqxx::connection connection_;
  pqxx::transaction_base* tx_ = nullptr;
  std::unordered_set<std::string> prepared_;
  bool healthy_ = true;
};

class PostgresDatabase final : public SqlDatabase {
 public:
  PostgresDatabase(std::string url, int pool_size)
      : url_(std::move(url)), capacity_(std::max(1, pool_size)) {}

  Dialect dialect() const override { return Dialect::kPostgres; }
  std::string_view backend_name() const override { return "postgres"; }

  Result<void> Transact(TxMode mode,
                        const std::function<Result<void>(SqlSession&)>& body) override {
    auto acquired = Acquire();
    if (!acquired) return acquired.error();
    // Returned to the pool on every exit, including an exception thrown by `body`.
    struct Release {
      PostgresDatabase* self;
      std::unique_ptr<PgConnection> connection;
      ~Release() { self->Return(std::move(connection)); }
    } release{this, std::move(*acquired)};
    return RunIn(*release.connection, mode, body);
  }

  Result<void> Connect() {
    auto acquired = Acquire();
    if (!acquired) return acquired.error();
    Return(std::move(*acquired));
    return {};
  }

 private:
  static Result<void> RunIn(PgConnection& connection, TxMode mode,
                            const std::function<Result<void>(SqlSession&)>& body) {
    try {
      if (mode == TxMode::kAutocommit) {
        pqxx::nontransaction tx(connection.raw());
        connection.Begin(&tx);
        return body(connection);
      }
      if (mode == TxMode::kRead) {
        pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> tx(connection.raw());
        connection.Begin(&tx);
        Result<void> outcome = body(connection);
        if (outcome) tx.commit();  // ends the snapshot; otherwise the destructor aborts it
        return outcome;
      }
      pqxx::work tx(connection.raw());
      connection.Begin(&tx);
      Result<void> outcome = body(connection);
      if (outcome) tx.commit();  // otherwise the destructor rolls back
      return outcome;
    } catch (const pqxx::failure& e) {  // BEGIN/COMMIT failures; a bug in `body` propagates
      Error error = PgError(e, "transaction");
      if (error.code() == ErrorCode::kStorageUnavailable) connection.MarkBroken();
      return error;
    }
  }

  Result<std::unique_ptr<PgConnection>> Acquire() {
    std::unique_lock lock(mutex_);
    available_.wait(lock, [&] { return !idle_.empty() || open_ < capacity_; });
    if (!idle_.empty()) {
      auto connection = std::move(idle_.back());
      idle_.pop_back();
      if (connection->healthy()) return connection;
      --open_;  // drop the broken one and open a fresh connection below
    }
    ++open_;
    lock.unlock();
    try {
      return std::make_unique<PgConnection>(url_);
    } catch (const std::exception& e) {
      {
        std::lock_guard relock(mutex_);
        --open_;
      }
      available_.notify_one();
      return PgConnectError(e);
    }
  }

  void Return(std::unique_ptr<PgConnection> connection) {
    {
      std::lock_guard lock(mutex_);
      if (connection->healthy()) {
        idle_.push_back(std::move(connection));
      } else {
        --open_;
      }
    }
    available_.notify_one();
  }

  const std::string url_;
  const int capacity_;
  std::mutex mutex_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<PgConnection>> idle_;
  int open_ = 0;
};

}  // namespace

Result<std::unique_ptr<SqlDatabase>> OpenPostgresDatabase(const std::string& url,
                                                          int pool_size) {
  auto database = std::make_unique<PostgresDatabase>(url, pool_size);
  auto connected = database->Connect();  // fail fast on a wrong URL or a server that is down
  if (!connected) return connected.error();
  return std::unique_ptr<SqlDatabase>(std::move(database));
}

}  // namespace sightline::storage
