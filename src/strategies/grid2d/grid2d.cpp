#include "strategies/grid2d/grid2d.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <numeric>

#include "strategies/grid2d/arrangement.hpp"
#include "tmap/error.hpp"
#include "tmap/topology.hpp"
#include "util/text.hpp"

namespace tmap::strategies {

namespace grid2d {

std::optional<Stencil> recognise_stencil(const CommMatrix& comm) {
  const Rank n = comm.num_ranks();
  for (std::int64_t cols = 1; cols <= n; ++cols) {
    if (n % cols != 0) continue;
    const std::int64_t rows = n / cols;
    Stencil s{rows, cols, 0, 0, false};
    bool fits = true;
    std::int64_t horizontal = 0;
    std::int64_t vertical = 0;
    bool wrapped = false;
    // Is b one step from a along a ring of `size` (wrap = across the ends)?
    const auto step = [](std::int64_t a, std::int64_t b, std::int64_t size, bool& wrap) {
      if (a - b == 1 || b - a == 1) return true;
      if (size > 2 && ((a == 0 && b == size - 1) || (b == 0 && a == size - 1))) {
        wrap = true;
        return true;
      }
      return false;
    };
    for (Rank a = 0; a < n && fits; ++a) {
      const auto targets = comm.targets(a);
      const auto volumes = comm.volumes(a);
      for (std::size_t k = 0; k < targets.size() && fits; ++k) {
        const Rank b = targets[k];
        const auto ra = a / cols, ca = a % cols, rb = b / cols, cb = b % cols;
        Volume* slot = nullptr;
        if (ra == rb && step(ca, cb, cols, wrapped)) {
          slot = &s.horizontal;
          ++horizontal;
        } else if (ca == cb && step(ra, rb, rows, wrapped)) {
          slot = &s.vertical;
          ++vertical;
        }
        if (slot == nullptr || (*slot != 0 && *slot != volumes[k])) {
          fits = false;
        } else {
          *slot = volumes[k];
        }
      }
    }
    if (!fits) continue;
    // Every neighbour pair present, both ways: count the messages.
    const auto links = [&](std::int64_t size) { return size == 1 ? 0 : (wrapped && size > 2 ? size : size - 1); };
    if (horizontal != 2 * rows * links(cols) || vertical != 2 * cols * links(rows)) continue;
    s.periodic = wrapped;
    return s;
  }
  return std::nullopt;
}

BandwidthTable BandwidthTable::parse(const std::string& text, const std::string& origin) {
  BandwidthTable table;
  detail::LineReader lines(text);
  std::string_view line;
  while (lines.next(line)) {
    line = detail::strip_comment(line, '#');
    std::vector<std::string> words;
    std::string_view token;
    while (detail::next_token(line, token)) words.emplace_back(token);
    if (words.empty()) continue;
    const auto number = [&](const std::string& word) {
      char* end = nullptr;
      const double v = std::strtod(word.c_str(), &end);
      if (word.empty() || end != word.c_str() + word.size() || !(v > 0.0) || v > 1e300) {
        throw InputError(origin, lines.line_number(), "bandwidth '" + word + "' must be a positive number");
      }
      return v;
    };
    if ((words[0] == "intra" || words[0] == "inter") && words.size() == 3) {
      (words[0] == "intra" ? table.intra : table.inter) = Bandwidth{number(words[1]), number(words[2])};
    } else if (words.size() == 4) {
      std::int64_t g1 = 0;
      std::int64_t g2 = 0;
      if (!detail::parse_int(words[0], g1) || !detail::parse_int(words[1], g2) || g1 < 0 || g2 < 0) {
        throw InputError(origin, lines.line_number(), "expected 'intra H V', 'inter H V' or 'G1 G2 H V'");
      }
      const Bandwidth b{number(words[2]), number(words[3])};
      table.pairs[{g1, g2}] = b;
      table.pairs[{g2, g1}] = b;
    } else {
      throw InputError(origin, lines.line_number(), "expected 'intra H V', 'inter H V' or 'G1 G2 H V'");
    }
  }
  return table;
}

Bandwidth BandwidthTable::get(std::int64_t g1, std::int64_t g2, const std::string& origin) const {
  if (const auto it = pairs.find({g1, g2}); it != pairs.end()) return it->second;
  const auto& level = g1 == g2 ? intra : inter;
  if (!level) {
    throw InputError(origin, fmt::format("no bandwidth for groups {} and {} (add '{}' or '{} {} H V')", g1, g2,
                                         g1 == g2 ? "intra H V" : "inter H V", g1, g2));
  }
  return *level;
}

}  // namespace grid2d

Mapping Grid2dMapper::map(const Problem& problem, const Run& context) const {
  const Rank n = problem.comm.num_ranks();
  auto slots = problem.constraints.slots();
  slots.resize(static_cast<std::size_t>(n));
  const auto& options = context.grid2d;
  const bool free_shape = options.domain_height > 0.0 && options.domain_width > 0.0;
  const auto stencil = free_shape ? std::optional<grid2d::Stencil>{} : grid2d::recognise_stencil(problem.comm);
  if (!free_shape && !stencil) {
    context.note(1, "grid2d: the matrix is not a 2D 5-point stencil; ranks placed in order");
    return slots;
  }
  grid2d::Model model;
  model.processors = n;
  for (const PE pe : slots) model.group.push_back(problem.topology.top_group(pe));
  if (options.bandwidths.empty()) {
    // 1 / bandwidth = hops: the cost becomes a hop-weighted halo volume.
    const auto hops = [&](std::int64_t a, std::int64_t b) {
      return static_cast<double>(
          problem.topology.distance(slots[static_cast<std::size_t>(a)], slots[static_cast<std::size_t>(b)]));
    };
    model.inverse_bw_h = hops;
    model.inverse_bw_v = hops;
  } else {
    auto table = std::make_shared<grid2d::BandwidthTable>(
        grid2d::BandwidthTable::parse(options.bandwidths, options.bandwidths_origin));
    // Every group pair that can occur must be in the table: check now.
    for (const auto g1 : model.group) {
      for (const auto g2 : model.group) (void)table->get(g1, g2, options.bandwidths_origin);
    }
    const auto& group = model.group;
    model.inverse_bw_h = [table, &group](std::int64_t a, std::int64_t b) {
      return 1.0 / table->get(group[static_cast<std::size_t>(a)], group[static_cast<std::size_t>(b)], "").horizontal;
    };
    model.inverse_bw_v = [table, &group](std::int64_t a, std::int64_t b) {
      return 1.0 / table->get(group[static_cast<std::size_t>(a)], group[static_cast<std::size_t>(b)], "").vertical;
    };
  }
  if (free_shape) {
    model.height = options.domain_height;
    model.width = options.domain_width;
  } else {
    model.shapes = {{stencil->rows, stencil->cols}};
    model.scale_with_shape = false;
    model.height = static_cast<double>(stencil->horizontal);
    model.width = static_cast<double>(stencil->vertical);
    model.periodic = stencil->periodic;
  }
  // The paper's start: processors of one group consecutive.
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), std::int64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    return model.group[static_cast<std::size_t>(a)] < model.group[static_cast<std::size_t>(b)];
  });
  // The paper's algorithm, then the better of its result and in-order gets
  // the final local search.
  model.polish = false;
  auto result = grid2d::arrange(model, order);
  // Never worse than in-order (rank i * cols + j on slot i * cols + j) in
  // the shape chosen: the heuristic only permutes whole blocks and columns.
  grid2d::Arrangement inorder{result.rows, result.cols, {}, 0.0, 0};
  std::vector<std::int64_t> identity(static_cast<std::size_t>(n));
  std::iota(identity.begin(), identity.end(), std::int64_t{0});
  inorder.at.resize(identity.size());
  for (std::int64_t i = 0; i < result.rows; ++i) {
    for (std::int64_t j = 0; j < result.cols; ++j) {
      inorder.at[static_cast<std::size_t>(j * result.rows + i)] = i * result.cols + j;
    }
  }
  inorder.cost = grid2d::cost(model, result.rows, result.cols, inorder.at);
  const auto heuristic_cost = result.cost;
  if (inorder.cost < result.cost) {
    result.at = inorder.at;
    result.cost = inorder.cost;
  }
  grid2d::polish(model, result);
  context.note(1, fmt::format("grid2d: {} x {} arrangement (rows x columns), cost {:.6g} (in-order {:.6g}, the paper's "
                              "heuristic {:.6g} in {} round(s))",
                              result.rows, result.cols, result.cost, inorder.cost, heuristic_cost, result.iterations));
  // Sub-domain (i, j) is rank i * cols + j.
  Mapping mapping(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < result.cols; ++j) {
    for (std::int64_t i = 0; i < result.rows; ++i) {
      mapping[static_cast<std::size_t>(i * result.cols + j)] =
          slots[static_cast<std::size_t>(result.at[static_cast<std::size_t>(j * result.rows + i)])];
    }
  }
  return mapping;
}

}  // namespace tmap::strategies
