// What a Job holds (its parts, built once) and the pieces of its assembly
// its files share: errors in the spec's words, the traffic's reading, the
// configuration path, why ranks do not fit.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tmap/error.hpp"
#include "tmap/job.hpp"

namespace tmap {

struct Job::State {
  JobSpec spec;
  NoteSink notes;
  std::shared_ptr<const Topology> machine;
  std::optional<CommMatrix> traffic;
  std::optional<std::vector<std::string>> hosts;  ///< --hosts, read once (a pipe gives it once)
  bool allocation_done = false;
  std::optional<Allocation> allocation;
  std::optional<RankSlots> slots;
  std::optional<Constraints> constraints;
  std::optional<Context> context;
  bool routing_done = false;
  bool problem_checked = false;  ///< the ranks fit and the traffic is sound: checked once
  std::unique_ptr<RoutingModel> routing;

  /// Tells the front end (in its words); empty notes are nothing to say.
  void note(const std::string& text) const;
  [[nodiscard]] std::shared_ptr<const Topology> topology() const;
  /// The hosts file's names in node order, or none.
  [[nodiscard]] const std::vector<std::string>& listed_hosts(const Topology& t);

  /// Runs `work` with its errors in the spec's words (an error naming a
  /// file and line is the file's, and kept).
  template <typename Work>
  auto in_words(Work&& work) const {
    try {
      return work();
    } catch (const InputError& e) {
      if (!e.file().empty()) throw;
      throw InputError(spec.words.say(e.what()));
    } catch (const ParameterError& e) {
      throw ParameterError(spec.words.say(e.what()));
    } catch (const UnsupportedError& e) {
      throw UnsupportedError(spec.words.say(e.what()));
    }
  }
};

/// A message about field `key` said with the front end's `word`: a message
/// that starts with the key ("seed: ...", "grid2d-domain '12': ...") gets
/// the word in its place, any other the word in front ("WORD: ...").
[[nodiscard]] std::string named(const std::string& message, std::string_view key, const std::string& word);

/// The configuration of a ContextSource (preset, config file, options,
/// strategy), its errors naming the front end's words for each option.
[[nodiscard]] Context build_context(const ContextSource& source, const JobWords& words);
/// Where the link bandwidths came from, for messages.
[[nodiscard]] std::string bandwidths_origin(const ContextSource& source, const JobWords& words);
/// Whether the front end asked for a refinement itself (an initial mapping
/// is otherwise refined by multilevel).
[[nodiscard]] bool refine_asked(const ContextSource& source);

/// The output asked for can be written (hydra names a program; a program
/// is one line).
void check_output(const OutputSpec& output);

/// Why the ranks do not fit, and what would make them (in tm-map's words).
[[nodiscard]] std::string not_fitting(const CommMatrix& comm, const Constraints& c, const std::string& shortfall,
                                      const Topology& topology, bool node_given);

}  // namespace tmap
