// Finding names in a language model's answer the way a reader would: regardless of case and
// accents (Unicode case folding after removing combining marks: "CAFÉ" finds "café" and
// "Cafe"), only as whole words (no "Acme" inside "Acmeville"; scripts written without spaces,
// such as Chinese or Japanese, match anywhere), and with the sentence around a match. Over ICU.
// Offsets are UTF-16 code units of the answer, as JavaScript counts them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::visibility {

class AnswerText {
 public:
  explicit AnswerText(std::string_view utf8);
  ~AnswerText();
  AnswerText(const AnswerText&) = delete;
  AnswerText& operator=(const AnswerText&) = delete;

  // Offsets of every whole-word occurrence of `name` (the folded form is searched).
  std::vector<std::size_t> Find(std::string_view name) const;
  // The sentence holding `offset`, trimmed, at most `max_chars` code points (cut at a word).
  std::string SentenceAround(std::size_t offset, std::size_t max_chars = 300) const;

 private:
  struct Impl;
  Impl* impl_;
};

}  // namespace sightline::visibility
