// The mapper interface, its options and the strategy table.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tmap/export.h"
#include "tmap/mapping.hpp"
#include "tmap/objective.hpp"
#include "tmap/types.hpp"

TMAP_API_BEGIN

namespace tmap {

class CommMatrix;
class Topology;

/// OHTMA's knobs (OHTMA paper, Algorithm 1).
struct OhtmaOptions {
  /// Pair-exchange iterations; negative = the paper's default, n/2.
  std::int64_t loop = -1;
  /// ohtma+ only: most exchange passes (each until its best prefix).
  std::int64_t max_passes = 64;
  /// ohtma+ only: switches for its extensions, to measure each one's effect.
  bool repeat_passes = true;     ///< pair-exchange passes until one keeps nothing
  bool free_slot_moves = true;   ///< free slots join the exchange as silent ranks
  bool candidate_search = true;  ///< candidate-list local search at the end

  friend bool operator==(const OhtmaOptions&, const OhtmaOptions&) = default;
};

/// Scotch's knobs. `scotch` reads the gmap ones (as scotch_gmap's -b, -c,
/// -m; the defaults are gmap's -cb); `scotch+` reads sparse_factor.
struct ScotchOptions {
  /// Drop traffic below this fraction of the heaviest pair (TopoMatch -a).
  double sparse_factor = 0.0;
  /// Load imbalance ratio (gmap -b; gmap's default 0.01).
  double imbalance = 0.01;
  /// Strategy letters as gmap's -c: b balance, q quality, r recursive
  /// bipartitioning, s speed, t safety.
  std::string flags = "b";
  /// A libscotch mapping strategy string (gmap -m); replaces flags and
  /// imbalance when not empty.
  std::string strategy;
  /// scotch+ only: the target libscotch gets (auto, native, table, grouped, graph).
  std::string target = "auto";

  friend bool operator==(const ScotchOptions&, const ScotchOptions&) = default;
};

/// TreeMatch's knobs.
struct TreeMatchOptions {
  /// Below this many candidate groups C(m, a) a level is grouped by full
  /// enumeration (TopoMatch's tau).
  std::int64_t tau = 30000;
  /// How sets of ranks are split: "auto" (multilevel bisection in jobs
  /// above 262,144 ranks, the default), "flat" (greedy growing and FM over
  /// every set: the quality preset) or "multilevel".
  std::string bisection = "auto";
  /// Where TreeMatch's bottom-up grouping runs beside the top-down split on
  /// full trees: "auto" (above 16,384 ranks; alone above 262,144: the
  /// default) or "always" (up to 262,144 ranks beside it: the quality preset).
  std::string grouping = "auto";

  friend bool operator==(const TreeMatchOptions&, const TreeMatchOptions&) = default;
};

/// Refinement after a strategy (any strategy): none, a swap descent to a
/// local optimum, robust tabu search, or multilevel V-cycles (blocks of
/// ranks moved at every level of the machine, then the swap descent; up to
/// 256 slots a tabu search between them).
enum class RefineKind { None, Swap, Tabu, Multilevel };

struct RefineOptions {
  RefineKind kind = RefineKind::None;
  /// Tabu moves; negative = 200 x slots, at most 3e8 / slots^2 (a move
  /// costs slots^2 table updates); after multilevel V-cycles 1e7 /
  /// slots^2 (up to 256 slots).
  std::int64_t iterations = -1;
  /// Wall-clock cap of the tabu search in seconds (0 = none). A cap makes
  /// results depend on the machine's speed; the iteration budget does not.
  double time_limit_s = 0.0;

  friend bool operator==(const RefineOptions&, const RefineOptions&) = default;
};

/// What a refinement did.
struct RefineStats {
  std::int64_t before = 0;  ///< hop-bytes of the construction
  std::int64_t after = 0;   ///< hop-bytes after refinement (<= before)
  double seconds = 0.0;
  std::int64_t iterations = 0;
  std::int64_t swaps = 0;
  std::string method;  ///< what ran ("swap (dense)", "tabu", "swap (candidates)", ...)
};

/// grid2d's knobs (Malik et al.'s 2D arrangement).
struct Grid2dOptions {
  /// A bandwidth table (text of a --grid2d-bw file, format in docs/strategies.md)
  /// and the name to quote in its errors; empty = 1 / hops between PEs.
  std::string bandwidths;
  std::string bandwidths_origin;
  /// The domain in bytes (height x width): the strategy then chooses the
  /// r x c shape too, halos H / r and W / c, ranks numbered row-major in it.
  /// 0 = the matrix's stencil fixes shape and halos.
  double domain_height = 0.0;
  double domain_width = 0.0;

  friend bool operator==(const Grid2dOptions&, const Grid2dOptions&) = default;
};

/// rb's knobs (Hoefler-Snir recursive bisection).
struct RbOptions {
  /// Fiduccia-Mattheyses passes per cut; negative = the default (12, 4 above 50,000 ranks).
  std::int64_t passes = -1;

  friend bool operator==(const RbOptions&, const RbOptions&) = default;
};

/// auto's knobs.
struct AutoOptions {
  /// The Scotch candidate: "scotch" (one libscotch run, as gmap: the
  /// default) or "scotch+" (tmap's portfolio of four runs: the quality preset).
  std::string scotch = "scotch";
  /// Where treematch is a candidate on trees: "always" (the default) or
  /// "without-scotch" (only where Scotch is not run, above 16,384 ranks:
  /// the fast preset, gmap's time).
  std::string treematch = "always";

  friend bool operator==(const AutoOptions&, const AutoOptions&) = default;
};

/// The configuration of a mapping run: the strategy and every option, typed.
/// Copyable and comparable; the CLI fills it (presets, a config file, flags),
/// the library reads it. Saved and loaded as JSON (tmap/config.hpp), so a run
/// can be repeated from its output. Defaults give deterministic results.
/// Nothing here is run state: progress, logs and cancellation live in RunHooks.
struct Context {
  /// The strategy map() runs (a name of the strategy table).
  std::string strategy = "auto";
  /// Seed of every random choice (same seed + input = same mapping).
  std::uint64_t seed = 0;
  /// The thread budget of the whole run: OpenMP regions and the strategies'
  /// own workers share it. Results never depend on it.
  int threads = 1;
  /// Link bandwidths for routing-aware strategies (umpa-mc), as
  /// RoutingModel::set_bandwidths reads them ("row=2,col=2"); empty = 1.
  std::string link_bandwidths;
  /// What the run minimises (tmap/objective.hpp): hop-bytes, or on machines
  /// with routes the busiest link or the predicted time. auto and best
  /// choose their candidate by it; after the strategy (and --refine) a
  /// bottleneck objective's own refinement lowers it, never raising it.
  /// Unset ("auto", the default): hop-bytes, except that auto chooses its
  /// candidate by predicted time where the machine has routes (among those
  /// at most in-order's hop-bytes), since time is what users feel.
  std::optional<Objective> objective;
  OhtmaOptions ohtma;
  ScotchOptions scotch;
  TreeMatchOptions treematch;
  Grid2dOptions grid2d;
  RbOptions rb;
  AutoOptions auto_strategy;
  RefineOptions refine;

  /// The objective mappings are measured and refined by: the one given,
  /// hop-bytes when unset.
  [[nodiscard]] Objective measured_objective() const noexcept { return objective.value_or(Objective::HopBytes); }

  friend bool operator==(const Context&, const Context&) = default;
};

/// What a run reports as it goes (RunHooks::progress).
struct Progress {
  std::string_view stage;       ///< what runs: a strategy's name, "best", "refine"
  std::string_view detail;      ///< one line of text, e.g. "umpa-wh built 268000 refined 254000"
  double fraction = -1.0;       ///< how far the stage is, 0..1, when known; -1 otherwise
  std::int64_t hop_bytes = -1;  ///< the best mapping's hop-bytes so far, when known; -1 otherwise
  double elapsed_s = 0.0;       ///< since the outermost map_with started
  bool done = false;            ///< the stage ended
};

/// Shared by the nested runs of one map call (best runs the others): when it
/// started, and whether the caller asked it to stop. Thread-safe.
struct RunControl {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::atomic<bool> stop{false};
};

/// The runtime side of a run: where it reports and how it is stopped. Never
/// part of the configuration, never saved, never changes a mapping.
struct RunHooks {
  /// Notes up to this level reach `log`: 0 quiet, 1 normal, 2+ chatty.
  int verbosity = 0;
  /// Where strategies send notes (the tools print them on stderr with -v);
  /// empty = silent. The library never prints itself.
  std::function<void(std::string_view)> log;
  /// Called from the mapping's thread as the run goes: stages as they start
  /// and end, the portfolio's candidates as each finishes, refinement
  /// passes with the current best. Return false to stop the run cleanly: it
  /// ends at its next step with the best mapping found so far (a valid
  /// mapping; `stopped()` then says it is partial). Empty: no reports.
  std::function<bool(const Progress&)> progress;
  /// Told when a strategy could not run as itself here and mapped with
  /// another (geometric on a machine that is not a grid: scotch), so a
  /// comparison can say which rows are another strategy's. Empty: ignored.
  std::function<void(std::string_view strategy, std::string_view instead, std::string_view why)> fallback;
  /// Cancellation: set `control->stop` (from any thread) to stop the run as
  /// `progress` returning false does. Made by map() when empty, shared with
  /// the runs nested in it.
  std::shared_ptr<RunControl> control;
};

/// One run as the strategies see it: its configuration (a Context) and its
/// hooks. Made from a Context alone for a run that reports nothing.
struct Run : Context {
  RunHooks hooks;

  Run() = default;
  Run(const Context& config, RunHooks run_hooks = {})  // NOLINT(google-explicit-constructor): a Context is a silent run
      : Context(config), hooks(std::move(run_hooks)) {}

  /// The configuration alone.
  [[nodiscard]] const Context& config() const noexcept { return *this; }
  /// Sends a message to the log when the verbosity reaches `level`.
  void note(int level, std::string_view message) const {
    if (hooks.log && hooks.verbosity >= level) hooks.log(message);
  }
  /// `strategy` maps with `instead` here, because `why`: a level-1 note and
  /// the `fallback` hook.
  void fall_back(std::string_view who, std::string_view instead, std::string_view why) const {
    note(1, std::string(who) + ": " + std::string(why) + "; mapping with " + std::string(instead));
    if (hooks.fallback) hooks.fallback(who, instead, why);
  }
  /// Reports to `progress` (elapsed time filled in); returns false once the
  /// run should stop (start and done events ignore it, hence not nodiscard).
  bool report(Progress event) const {  // NOLINT(modernize-use-nodiscard)
    if (!hooks.progress || !hooks.control) return !stopped();
    event.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - hooks.control->start).count();
    if (!hooks.progress(event)) hooks.control->stop = true;
    return !stopped();
  }
  /// Whether the caller asked this run to stop (the result is then partial).
  [[nodiscard]] bool stopped() const noexcept { return hooks.control && hooks.control->stop.load(); }
};

/// What scotch_gmap -vs and -vm print for a plain Scotch run, in its
/// format, from libscotch itself.
struct ScotchGmapLog {
  /// Asked for: libscotch's view of the mapping (-vm). Not given on deco
  /// targets whose terminal labels have gaps: libscotch 7.0.3's view
  /// crashes there (scotch_gmap -vm too, measured).
  bool want_view = false;
  std::string strategy;      ///< the strategy as SCOTCH_stratSave writes it
  std::string mapping_view;  ///< SCOTCH_graphMapView's lines ("M\tProcessors ...")
};

/// What to map: the traffic, the machine and the allowed slots.
struct Problem {
  const CommMatrix& comm;
  const Topology& topology;
  const Constraints& constraints;
};

class Mapper {
 public:
  virtual ~Mapper() = default;
  /// Returns sigma[rank] = PE for every rank. Implementations may assume
  /// check_problem(problem) passed.
  [[nodiscard]] virtual Mapping map(const Problem& problem, const Run& run) const = 0;
};

/// What a strategy can do, so that callers ask the row instead of comparing
/// names.
enum StrategyTraits : unsigned {
  /// Runs the refinement itself (best): --refine is handed to it, not applied after.
  kRefinesItself = 1U << 0,
  /// Keeps an n x n table: the portfolio leaves it out above 4096 ranks.
  kQuadraticInRanks = 1U << 1,
  /// Works on tree machines only and hands other machines to scotch: the
  /// portfolio leaves it out where the machine is not a tree.
  kTreesOnly = 1U << 2,
  /// Maps a graph spread over MPI processes (ptscotch): the distributed
  /// front ends run it there; in one process it maps as its counterpart,
  /// and --compare all leaves it out (it would repeat that row).
  kDistributed = 1U << 3,
  /// Balances ranks of unequal weight by load (--imbalance): other
  /// strategies hand such problems to auto, saying so.
  kBalancesLoad = 1U << 4,
};

/// One option of a strategy: `key` is tm-map's flag without "--" and the C
/// API's key; `apply` reads a value into the context (strictly: ParameterError
/// "KEY: problem" for a bad value).
struct StrategyOption {
  std::string_view key;
  std::string_view help;
  void (*apply)(Context& context, std::string_view value);
  /// The value as text that `apply` reads back to the same Context field
  /// (how a configuration is saved).
  std::string (*show)(const Context& context);
  /// The value names a file the strategy reads (tools keep outputs off it).
  bool names_file = false;
};

/// One row of the strategy table.
struct StrategyInfo {
  std::string_view name;
  std::string_view summary;
  std::unique_ptr<Mapper> (*make)();
  /// StrategyTraits bits.
  unsigned traits = 0;
  /// Its place among best's constructions (1 = tried first); 0 = not one.
  int portfolio_order = 0;
  /// Its options, registered as tm-map flags and C API keys from here.
  std::span<const StrategyOption> options = {};

  [[nodiscard]] bool has(StrategyTraits trait) const noexcept { return (traits & trait) != 0; }
};

/// Every strategy compiled into this build, in the order `--help` lists them.
[[nodiscard]] std::span<const StrategyInfo> strategy_table();
/// The strategy `tm-map` uses without `-s`.
[[nodiscard]] std::string_view default_strategy();
/// Looks a strategy up by name; ParameterError listing the known names otherwise.
[[nodiscard]] const StrategyInfo& find_strategy(std::string_view name);

/// Throws InputError when the problem cannot be mapped (more ranks than
/// slots, constraints made for another topology).
void check_problem(const Problem& problem);

/// Improves a valid mapping in place by context.refine (never worse, same
/// constraints). Deterministic for a given seed and iteration budget.
RefineStats refine_mapping(const Problem& problem, Mapping& mapping, const Run& run);

/// What refine_for_objective did, in the objective's units.
struct ObjectiveRefineStats {
  ObjectiveScore before;
  ObjectiveScore after;  ///< never worse than before
  std::int64_t swaps = 0;
  double seconds = 0.0;
};

/// Lowers run.objective's bottleneck (congestion or time) in place: Deveci
/// et al.'s Algorithm 3 moving the ranks of the busiest link, hop-bytes
/// breaking ties, kept only when the score drops. Nothing for hop-bytes.
/// ParameterError when the machine has no routes (tmap/objective.hpp).
ObjectiveRefineStats refine_for_objective(const Problem& problem, Mapping& mapping, const Run& run);

/// Parses "none", "swap", "tabu" or "multilevel"; ParameterError otherwise.
[[nodiscard]] RefineKind refine_kind_from_name(std::string_view name);
/// A strategy as users write it (tm-map -s, --compare's list, TMAP_STRATEGY,
/// Python's strategy=): "NAME" or "NAME:REFINE" (scotch:tabu), the
/// refinement overriding the run's. The one reading of it.
struct StrategySpec {
  std::string name;
  std::optional<RefineKind> refine;
};
/// ParameterError for a strategy the table lacks or an unknown refinement.
[[nodiscard]] StrategySpec parse_strategy_spec(std::string_view text);

/// The refinement's name ("none", "swap", ...), and every name in order.
[[nodiscard]] std::string_view refine_kind_name(RefineKind kind);
[[nodiscard]] std::vector<std::string> refine_kind_names();

/// check_problem, run context.strategy, refine by context.refine, validate.
/// The mapping depends on the problem and the context only, never on the hooks
/// (but a run stopped through them returns the best mapping so far).
[[nodiscard]] Mapping map(const Problem& problem, const Context& context, const RunHooks& hooks = {});

/// map() with the strategy named here instead of run.strategy (portfolios
/// run their members this way, sharing the caller's hooks).
[[nodiscard]] Mapping map_with(std::string_view strategy, const Problem& problem, const Run& run);

/// What the stages after the strategy did, for a report: the refinement
/// (when run.refine ran) and the objective's (when run.objective is not
/// hop-bytes).
struct StageStats {
  std::optional<RefineStats> refine;
  std::optional<ObjectiveRefineStats> objective;
};

/// map_with that also says what its stages did.
[[nodiscard]] Mapping map_with(std::string_view strategy, const Problem& problem, const Run& run, StageStats& stages);

/// The stages that follow a strategy, on a mapping made elsewhere (a file,
/// another mapper's output): refined by run.refine, then for run.objective,
/// as map_with does after its strategy, so that starting from map_with's
/// own construction gives map_with's mapping. check_problem, then `start`
/// validated against the problem (InputError otherwise). Never worse than
/// `start` in the objective, hop-bytes when the refinement alone runs.
[[nodiscard]] Mapping refine_from(Mapping start, const Problem& problem, const Run& run, StageStats& stages);

/// The refinement a mapping given to improve gets (tm-map --initial, the
/// Python module's initial=, tmap_refine): the quality mode's, multilevel,
/// unless the caller asked for one (even none) or the context already has one.
void refine_given_mapping_by_default(Context& context, bool refine_asked);

/// map_with("scotch", ...) that also fills `log` with what scotch_gmap -vs
/// and -vm print for it; the log stays empty where the run is not gmap's
/// (no Scotch target gmap could be given, or overfull PEs repaired).
[[nodiscard]] Mapping map_scotch_gmap(const Problem& problem, const Run& run, ScotchGmapLog& log);

}  // namespace tmap

TMAP_API_END
