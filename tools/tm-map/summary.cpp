// tm-map's summary on stderr: the run's figures, one line each.
#include "summary.hpp"

#include <fmt/format.h>

namespace tmap::cli {

void print_summary(const RunResult& r, const Constraints& constraints, const CommMatrix& comm) {
  const Rank n = comm.num_ranks();
  const auto& m = r.report.metrics;
  const auto per_pe = balances_load(comm.rank_weights(), constraints)
                          ? fmt::format("a load of {} each", constraints.load_limit())
                          : fmt::format("x {}", constraints.capacity());
  fmt::print(stderr, "tm-map: {} ranks on {} ({} allowed PEs {}), strategy {}\n", n, r.report.topology,
             constraints.allowed_pes().size(), per_pe, r.report.strategy);
  fmt::print(stderr, "tm-map: hop_bytes {}  avg_hops {:.4f}  max_com {}  total_bytes {}  time {:.4f} s\n", m.hop_bytes,
             m.avg_hops, m.max_com, m.total_bytes, r.report.time_s);
  if (const auto& l = r.report.loads) {
    fmt::print(stderr, "tm-map: loads: heaviest PE {} (average {:.2f}, imbalance {:.4f}){}\n", l->max_load, l->average,
               l->imbalance, l->limit > 0 ? fmt::format(", limit {}", l->limit) : std::string());
  }
  if (r.report.routes) {
    const auto& x = *r.report.routes;
    fmt::print(stderr, "tm-map: links: TH {}  WH {}  MMC {}  MC {:.6g}  AMC {:.6g}  AC {:.6g}  ({} links used)\n", x.th,
               x.wh, x.mmc, x.mc, x.amc, x.ac, x.used_links);
  }
  if (r.report.predicted_time_s) {
    const auto phases = comm.phases().size();
    fmt::print(stderr, "tm-map: predicted time {:.6g} s ({})\n", *r.report.predicted_time_s,
               phases == 0   ? std::string("one round of the matrix, the flow model's bound")
               : phases == 1 ? std::string("its one phase, rank by rank")
                             : fmt::format("its {} phases in order, rank by rank", phases));
  }
  if (r.report.objective_refine) {
    const auto& o = *r.report.objective_refine;
    fmt::print(stderr, "tm-map: objective {}: {} -> {} in {:.4f} s ({} swaps)\n", objective_name(r.report.objective),
               describe_score(r.report.objective, o.before), describe_score(r.report.objective, o.after), o.seconds,
               o.swaps);
  }
  if (r.report.sim_time_s) {
    fmt::print(stderr, "tm-map: simulated communication time {:.6g} s (SimGrid, all messages at once)\n",
               *r.report.sim_time_s);
  }
  if (r.report.refine) {
    fmt::print(stderr, "tm-map: refined by {}: hop_bytes {} -> {} in {:.4f} s ({} swaps)\n", r.report.refine->method,
               r.report.refine->before, r.report.refine->after, r.report.refine->seconds, r.report.refine->swaps);
  }
  std::string histogram;
  for (const auto& [d, bytes] : m.bytes_by_distance) histogram += fmt::format(" {}:{}", d, bytes);
  fmt::print(stderr, "tm-map: bytes by distance (distance:bytes):{}\n", histogram);
}

}  // namespace tmap::cli
