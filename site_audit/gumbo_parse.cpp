#include "site_audit/gumbo_parse.h"

#include <gumbo.h>
#include <time.h>

#include <algorithm>
#include <csetjmp>
#include <cstdlib>
#include <new>
#include <optional>
#include <string>
#include <utility>

namespace sightline::site_audit {
namespace {

// Gumbo 0.10 fails assertions, aborting the whole process, on some foreign content inside
// tables: "<table><math><select><mi><select><table>" and
// "<table><caption><svg><td><foreignObject><table></table></table>" (found by fuzzing; the
// project is archived, see also google/gumbo-parser#278, #331). Fuzzing found none without a
// <table> element, so a page that has both gets its table tags renamed to an unknown element
// before parsing. Its cell tags are then ignored and their content stays where it is written
// (nothing is foster-parented out of a table): the same text, links and images, in source
// order. "<table" in text (a title, a JSON-LD string) is renamed too.
constexpr std::string_view kTable = "table";
constexpr std::string_view kInertTable = "tabl-";  // the same length: a copy, renamed in place

bool IsTagNameEnd(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == '/' || c == '>';
}

// Whether a start or end tag named `name` (lowercase) begins at html[at] ('<'). The tokenizer
// takes ASCII letters of a name in any case and decodes no references there, so this finds
// every such tag, and some more inside comments, scripts and attribute values.
bool TagAt(std::string_view html, std::size_t at, std::string_view name) {
  std::size_t i = at + 1;
  if (i < html.size() && html[i] == '/') ++i;
  if (html.size() - i < name.size()) return false;
  for (const char expected : name) {
    const char c = html[i++];
    if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != expected) return false;
  }
  return i == html.size() || IsTagNameEnd(html[i]);
}

// `html` with its table tags renamed when it also has <svg> or <math>; nullopt otherwise.
std::optional<std::string> WithTablesRenamed(std::string_view html) {
  bool table = false, foreign = false;
  for (std::size_t at = html.find('<'); at != std::string_view::npos && !(table && foreign);
       at = html.find('<', at + 1)) {
    table = table || TagAt(html, at, kTable);
    foreign = foreign || TagAt(html, at, "svg") || TagAt(html, at, "math");
  }
  if (!(table && foreign)) return std::nullopt;
  std::string renamed(html);
  for (std::size_t at = renamed.find('<'); at != std::string::npos;
       at = renamed.find('<', at + 1)) {
    if (!TagAt(renamed, at, kTable)) continue;
    const std::size_t name_at = at + (renamed[at + 1] == '/' ? 2 : 1);
    renamed.replace(name_at, kInertTable.size(), kInertTable);
  }
  return renamed;
}

std::int64_t ThreadCpuNanos() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

}  // namespace

// Gumbo's allocator for one parse: a bump arena, freed whole with the parse. That is faster than
// malloc for gumbo's many small blocks, and it replaces gumbo_destroy_output, which recurses
// once per tree level. Gumbo frees little before the end (its total requests are about its peak
// use), so never reusing a block wastes little.
//
// It is also the only code gumbo calls back while parsing, so it is where an over-budget parse
// is stopped. Gumbo has no cancellation and C++ exceptions cannot cross its C frames, so Take
// longjmps back to Parse: no frame in between has anything to destroy, and everything
// gumbo holds lives in this arena, so nothing leaks.
class GumboParse::Arena {
 public:
  Arena(std::size_t max_bytes, std::int64_t cpu_budget_ns)
      : max_bytes_(max_bytes), deadline_ns_(ThreadCpuNanos() + cpu_budget_ns) {}
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena() {
    while (chunks_ != nullptr) std::free(std::exchange(chunks_, chunks_->previous));
  }

  // The tree, or nullptr when the parse was stopped. Nothing with a destructor may live in
  // this function between setjmp and the longjmp that may return to it.
  const GumboOutput* Parse(std::string_view html) {
    GumboOptions options = kGumboDefaultOptions;
    options.allocator = &Allocate;
    options.deallocator = &Deallocate;
    options.userdata = this;
    // Unlimited by default, and each error copies the stack of open elements: quadratic memory
    // on deep nesting. Nothing here reads the errors.
    options.max_errors = 0;
    if (setjmp(abandon_) != 0) return nullptr;
    return gumbo_parse_with_options(&options, html.data(), html.size());
  }

  Outcome outcome() const { return outcome_; }

 private:
  struct alignas(std::max_align_t) Chunk {
    Chunk* previous;
  };
  static constexpr std::size_t kAlign = alignof(std::max_align_t);
  static constexpr std::size_t kChunkBytes = 256 * 1024;
  static constexpr unsigned kCallsPerClockCheck = 256;  // reading the CPU clock is a syscall

  static void* Allocate(void* arena, std::size_t size) {
    return static_cast<Arena*>(arena)->Take(size);
  }
  static void Deallocate(void* /*arena*/, void* /*block*/) {}  // freed with the arena

  void* Take(std::size_t size) {
    size = (std::max<std::size_t>(size, 1) + kAlign - 1) / kAlign * kAlign;
    if (++calls_ % kCallsPerClockCheck == 0 && ThreadCpuNanos() > deadline_ns_) {
      Abandon(Outcome::kOverCpu);
    }
    if (size > kChunkBytes / 4) return NewChunk(size);  // a block of its own
    if (size > static_cast<std::size_t>(end_ - next_)) {
      next_ = static_cast<std::byte*>(NewChunk(kChunkBytes));
      end_ = next_ + kChunkBytes;
    }
    return std::exchange(next_, next_ + size);
  }

  // A new block of `size` usable bytes, chained for the destructor.
  void* NewChunk(std::size_t size) {
    reserved_ += sizeof(Chunk) + size;
    if (reserved_ > max_bytes_) Abandon(Outcome::kOverMemory);
    void* block = std::malloc(sizeof(Chunk) + size);
    if (block == nullptr) Abandon(Outcome::kOverMemory);
    chunks_ = ::new (block) Chunk{chunks_};
    return chunks_ + 1;
  }

  [[noreturn]] void Abandon(Outcome outcome) {
    outcome_ = outcome;
    std::longjmp(abandon_, 1);
  }

  std::jmp_buf abandon_;
  Outcome outcome_ = Outcome::kParsed;
  std::size_t max_bytes_;
  std::int64_t deadline_ns_;
  std::size_t reserved_ = 0;
  unsigned calls_ = 0;
  Chunk* chunks_ = nullptr;
  std::byte* next_ = nullptr;
  std::byte* end_ = nullptr;
};

GumboParse::GumboParse(std::string_view html, std::size_t max_bytes, std::int64_t cpu_budget_ns)
    : arena_(std::make_unique<Arena>(max_bytes, cpu_budget_ns)) {
  if (auto renamed = WithTablesRenamed(html)) {
    renamed_html_ = std::move(*renamed);
    html = renamed_html_;
  }
  output_ = arena_->Parse(html);
}

GumboParse::~GumboParse() = default;

GumboParse::Outcome GumboParse::outcome() const { return arena_->outcome(); }

}  // namespace sightline::site_audit
