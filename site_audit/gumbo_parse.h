// One HTML5 parse by gumbo 0.10 (Debian's libgumbo), made fit for hostile pages:
// - held to a CPU and a memory budget: gumbo is quadratic in time on deep nesting (each start
//   tag scans the stack of open elements) and in time and memory on formatting elements
//   reopened in every paragraph, so a 500 kB page can take a minute or many gigabytes;
// - its tree freed without recursion, so a deep document is safe on a small thread stack;
// - steered clear of the assertion failures (process aborts) gumbo has on <svg>/<math> inside
//   tables, by renaming the table tags of pages that have both (see gumbo_parse.cpp).
// An object is used on one thread; separate objects are independent.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

struct GumboInternalOutput;  // gumbo's GumboOutput, kept out of this header

namespace sightline::site_audit {

class GumboParse {
 public:
  enum class Outcome {
    kParsed,
    kOverCpu,     // gumbo used more than the CPU budget of this thread's time
    kOverMemory,  // gumbo asked for more than the memory budget, or malloc failed
  };

  // Parses `html`, which must outlive this object (the tree points into it). Parse errors are
  // not recorded.
  GumboParse(std::string_view html, std::size_t max_bytes, std::int64_t cpu_budget_ns);
  ~GumboParse();
  GumboParse(const GumboParse&) = delete;
  GumboParse& operator=(const GumboParse&) = delete;

  Outcome outcome() const;
  // The tree, owned by this object; nullptr unless outcome() is kParsed.
  const GumboInternalOutput* output() const { return output_; }

 private:
  class Arena;
  std::unique_ptr<Arena> arena_;
  std::string renamed_html_;  // what was parsed, when not `html` itself
  const GumboInternalOutput* output_ = nullptr;
};

}  // namespace sightline::site_audit
