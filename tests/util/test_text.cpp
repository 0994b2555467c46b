#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "tmap/error.hpp"
#include "util/random.hpp"
#include "util/text.hpp"

using namespace tmap::detail;

TEST(Text, LineReaderHandlesCrLfAndMissingNewline) {
  LineReader lines("a\r\nb\n\nc");
  std::string_view line;
  std::vector<std::string> seen;
  while (lines.next(line)) seen.emplace_back(line);
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b", "", "c"}));
  EXPECT_EQ(lines.line_number(), 4);
}

// The blank-separated tokens (a table lookup a character) are what the
// generic splitting on the same characters gives, on texts of blanks,
// newlines, NULs, bytes past 127 and letters.
TEST(Text, BlankTokensAsTheGenericSplitOnTheSameCharacters) {
  const std::string alphabet(" \t\r\v\fab\n\0\xa0\xff", 11);
  const std::string_view same_set = "\f\v\r\t ";  // kBlanks in another order: not the table's path
  Random random(11);
  for (int round = 0; round < 2000; ++round) {
    std::string text(random.below(12), ' ');
    for (auto& c : text) c = alphabet[random.below(alphabet.size())];
    std::string_view fast = text;
    std::string_view generic = text;
    std::string_view a;
    std::string_view b;
    for (;;) {
      const bool more = next_token(fast, a);
      ASSERT_EQ(more, next_token(generic, b, same_set)) << round;
      if (!more) break;
      ASSERT_EQ(a, b) << round;
      ASSERT_EQ(fast, generic) << round;
    }
    const auto first = std::string_view(text).find_first_not_of(kBlanks);
    EXPECT_EQ(first_not_blank(text), first) << round;
    EXPECT_EQ(is_blank(text), first == std::string_view::npos) << round;
  }
}

TEST(Text, TokenStreamTracksLines) {
  TokenStream in("mesh2D\n\n  8\t 9 \n", "f.tgt");
  EXPECT_EQ(in.expect("kind"), "mesh2D");
  EXPECT_EQ(in.line(), 1);
  EXPECT_EQ(in.expect_int("x", 1, 100), 8);
  EXPECT_EQ(in.line(), 3);
  EXPECT_EQ(in.expect_int("y", 1, 100), 9);
  EXPECT_TRUE(in.at_end());
  try {
    (void)in.expect("z");
    FAIL() << "expected an error at the end of input";
  } catch (const tmap::InputError& e) {
    EXPECT_EQ(e.file(), "f.tgt");
    EXPECT_NE(std::string(e.what()).find("unexpected end of input, expected z"), std::string::npos);
  }
}

TEST(Text, ParseVolumeAcceptsWholeNumbersInAnyNotation) {
  EXPECT_EQ(parse_volume("1000", "f", 1), 1000);
  EXPECT_EQ(parse_volume("+7", "f", 1), 7);
  EXPECT_EQ(parse_volume("1e3", "f", 1), 1000);
  EXPECT_EQ(parse_volume("1000.0", "f", 1), 1000);
  EXPECT_EQ(parse_volume("1.5e1", "f", 1), 15);
  EXPECT_EQ(parse_volume("0", "f", 1), 0);
  EXPECT_EQ(parse_volume("-0", "f", 1), 0);
  EXPECT_EQ(parse_volume("9223372036854775807", "f", 1), std::numeric_limits<std::int64_t>::max());
}

TEST(Text, ParseVolumeRejectsWithFileAndLine) {
  const std::pair<const char*, const char*> bad[] = {
      {"-3", "negative volume -3"}, {"abc", "is not a number"},    {"nan", "is NaN"},
      {"inf", "is infinite"},       {"0.5", "not a whole number"}, {"1e30", "exceeds 2^63-1"},
      {"12abc", "is not a number"}, {"", "is not a number"},
  };
  for (const auto& [token, message] : bad) {
    try {
      (void)parse_volume(token, "comm.mat", 17);
      FAIL() << token;
    } catch (const tmap::InputError& e) {
      EXPECT_EQ(e.line(), 17);
      EXPECT_NE(std::string(e.what()).find("comm.mat:17: "), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

TEST(Random, SameSeedSameStreamDifferentSeedDifferentStream) {
  Random a(42);
  Random b(42);
  Random c(43);
  bool differ = false;
  for (int i = 0; i < 100; ++i) {
    const auto x = a.next();
    EXPECT_EQ(x, b.next());
    differ = differ || x != c.next();
  }
  EXPECT_TRUE(differ);
}

TEST(Random, BelowIsInRangeAndCoversIt) {
  Random r(1);
  std::vector<int> hits(7, 0);
  for (int i = 0; i < 7000; ++i) {
    const auto v = r.below(7);
    ASSERT_LT(v, 7U);
    ++hits[v];
  }
  for (const int h : hits) EXPECT_GT(h, 800);  // each value near 1000
}

TEST(Random, ShuffleIsAPermutationAndDeterministic) {
  std::vector<int> v(50);
  std::iota(v.begin(), v.end(), 0);
  auto w = v;
  Random(5).shuffle(std::span<int>(v));
  Random(5).shuffle(std::span<int>(w));
  EXPECT_EQ(v, w);
  auto sorted = v;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < 50; ++i) EXPECT_EQ(sorted[i], i);
}
