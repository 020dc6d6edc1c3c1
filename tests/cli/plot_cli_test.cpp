// Pictures: `eval --plot` and `compare --plot` write well-formed SVG with the
// expected curves (one per model for compare), titles naming model and
// stream, and the compare table lists every model.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "support/cli_runner.hpp"

namespace irithyll::testing {
namespace {

// A strict-enough XML well-formedness check for generated SVG: every tag is
// closed in order, attributes are quoted, entities are known, and there is
// exactly one root element.
bool well_formed(const std::string& xml, std::string& why) {
  std::vector<std::string> open;
  std::size_t i = 0, roots = 0;
  if (xml.rfind("<?xml", 0) == 0) i = xml.find("?>") + 2;
  while (i < xml.size()) {
    if (xml[i] == '&') {
      const std::size_t semi = xml.find(';', i);
      const std::string entity = semi == std::string::npos ? "" : xml.substr(i, semi - i + 1);
      if (entity != "&amp;" && entity != "&lt;" && entity != "&gt;" && entity != "&quot;" && entity != "&apos;") {
        why = "bad entity at " + std::to_string(i);
        return false;
      }
      i = semi + 1;
      continue;
    }
    if (xml[i] != '<') {
      if (open.empty() && xml[i] != '\n' && xml[i] != ' ') {
        why = "text outside the root at " + std::to_string(i);
        return false;
      }
      ++i;
      continue;
    }
    std::size_t j = i + 1;
    bool in_quote = false;
    while (j < xml.size() && (in_quote || xml[j] != '>')) {
      if (xml[j] == '"') in_quote = !in_quote;
      if (!in_quote && xml[j] == '<') {
        why = "'<' inside a tag at " + std::to_string(j);
        return false;
      }
      ++j;
    }
    if (j >= xml.size()) {
      why = "unterminated tag";
      return false;
    }
    const std::string tag = xml.substr(i + 1, j - i - 1);
    const std::string name = tag.substr(tag[0] == '/' ? 1 : 0, tag.find_first_of(" \n/", 1) - (tag[0] == '/' ? 1 : 0));
    if (tag[0] == '/') {
      if (open.empty() || open.back() != name) {
        why = "mismatched </" + name + ">";
        return false;
      }
      open.pop_back();
    } else if (tag.back() != '/') {
      if (open.empty()) ++roots;
      open.push_back(name);
    } else if (open.empty()) {
      ++roots;
    }
    i = j + 1;
  }
  if (!open.empty()) why = "unclosed <" + open.back() + ">";
  else if (roots != 1) why = std::to_string(roots) + " root elements";
  return open.empty() && roots == 1;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(PlotCli, EvalPlotIsWellFormedWithBothCurvesAndATitle) {
  const std::string svg = temp_path("eval_plot.svg");
  auto r = run_cli("eval --stream sea --max-samples 5000 --quiet --plot " + svg);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string text = read_text_file(svg);
  std::string why;
  EXPECT_TRUE(well_formed(text, why)) << why;
  EXPECT_EQ(count(text, "<polyline class=\"curve\""), 2u);  // cumulative and rolling
  EXPECT_NE(text.find("Learning curve: sgbt on sea"), std::string::npos);
  auto bad = run_cli("eval --stream sea --max-samples 100 --quiet --plot " + temp_path("x.txt"));
  EXPECT_NE(bad.code, 0);
}

TEST(PlotCli, TreeReplacementsAreAStripNotLines) {
  // An elec8-like run (a drifting generated stream, SGBT with per-tree drift
  // detectors replacing trees often): replacements must not become
  // thousands of full-height lines painting the background.
  const std::string svg = temp_path("replacements_plot.svg");
  auto r = run_cli("eval --stream sea --max-samples 40000 --quiet --plot " + svg);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string text = read_text_file(svg);
  std::string why;
  EXPECT_TRUE(well_formed(text, why)) << why;
  EXPECT_EQ(count(text, "<line class=\"event\""), 0u);  // SGBT reports no model-level drift
  EXPECT_LE(count(text, "<rect class=\"strip-cell\""), 100u);
  EXPECT_NE(text.find("tree replacements"), std::string::npos) << "the run replaced no tree: the check is vacuous";
}

TEST(PlotCli, CompareDrawsOneCurvePerModelAndATable) {
  const std::string svg = temp_path("compare_plot.svg");
  auto r = run_cli("compare --stream sea --max-samples 3000 --models 'sgbt(n-steps=5),loglinear,esn' --plot " + svg);
  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* model : {"\nsgbt ", "\nloglinear ", "\nesn "}) EXPECT_NE(r.out.find(model), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("samples/s"), std::string::npos);
  EXPECT_NE(r.out.find("memory"), std::string::npos);
  const std::string text = read_text_file(svg);
  std::string why;
  EXPECT_TRUE(well_formed(text, why)) << why;
  EXPECT_EQ(count(text, "<polyline class=\"curve\""), 3u);
  for (const char* model : {"data-label=\"sgbt\"", "data-label=\"loglinear\"", "data-label=\"esn\""})
    EXPECT_NE(text.find(model), std::string::npos) << model;
}

TEST(PlotCli, CompareGivesEachModelTheSameResultsAsAlone) {
  auto both = run_cli("compare --stream sea --max-samples 2000 --models 'sgbt(n-steps=5),loglinear' --json");
  auto alone = run_cli("eval --stream sea --max-samples 2000 --model loglinear --json --quiet");
  auto sgbt = run_cli("eval --stream sea --max-samples 2000 --model sgbt --n-steps 5 --json --quiet");
  ASSERT_EQ(both.code, 0) << both.err;
  ASSERT_EQ(alone.code, 0) << alone.err;
  ASSERT_EQ(sgbt.code, 0) << sgbt.err;
  const auto lines = split_lines(both.out);
  ASSERT_EQ(lines.size(), 2u);
  auto accuracy = [](const std::string& s) { return s.substr(s.find("\"accuracy\""), 30); };
  EXPECT_EQ(accuracy(lines[0]), accuracy(sgbt.out));  // inline settings mean what the eval options mean
  EXPECT_EQ(accuracy(lines[1]), accuracy(alone.out));
}

TEST(PlotCli, PngIsRenderedWhenRsvgConvertIsThere) {
  if (std::system("command -v rsvg-convert >/dev/null 2>&1") != 0) {
    // scripts/install-deps installs it; under CI a missing tool is a failure.
    const char* ci = std::getenv("CI");
    if (ci != nullptr && std::string(ci) == "true") FAIL() << "rsvg-convert missing under CI=true (Debian librsvg2-bin)";
    GTEST_SKIP() << "rsvg-convert missing (Debian librsvg2-bin; scripts/install-deps installs it)";
  }
  const std::string png = temp_path("eval_plot.png");
  auto r = run_cli("eval --stream sea --max-samples 3000 --quiet --plot " + png);
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string bytes = read_text_file(png);
  ASSERT_GT(bytes.size(), 8u);
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
}

}  // namespace
}  // namespace irithyll::testing
