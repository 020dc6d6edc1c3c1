// The state a worker keeps for one partition it owns: learners by key in LRU
// order, records of evicted keys awaiting the next checkpoint, the label-join
// window, and the entry ids around the last checkpoint. Internal to worker.cpp.
#pragma once

#include <chrono>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "irithyll/core/status.hpp"
#include "irithyll/learner.hpp"
#include "serve/log.hpp"

namespace irithyll::serve::detail {

// What a key owes the checkpoint: set while it has learned entries that its
// stored record does not hold yet.
struct Unsaved {
  bool dirty = false;
  EntryId first;                                // first entry learned since the stored record
  std::chrono::steady_clock::time_point since;  // when that happened
  bool joined = false;  // learned a sample taken from the label window (saved with the window)
};

struct KeySlot {
  std::unique_ptr<Learner> model;
  std::uint64_t learned = 0;
  EntryId saved;                         // entries up to this id are in the model already (replay skips them)
  Unsaved unsaved;
  std::list<std::string>::iterator lru;  // position in Partition::lru
};

// An evicted key whose changes await the next checkpoint, which always writes it.
struct EvictedKey {
  std::string record;
  Unsaved unsaved;
};

// Unlabelled samples waiting for their label, oldest first. Keyed by
// "<key>\n<sample id>" since sample ids are unique per key only.
class LabelWindow {
 public:
  explicit LabelWindow(std::size_t capacity) : capacity_(capacity) {}
  // Adds a sample; returns how many old ones left the window to make room.
  std::size_t add(const std::string& key, const std::string& id, std::vector<double> x);
  // Removes and returns the sample's features, if still in the window.
  bool take(const std::string& key, const std::string& id, std::vector<double>& x);
  std::size_t size() const { return by_name_.size(); }
  std::string encode() const;
  Status decode(std::string_view bytes);

 private:
  struct Item {
    std::uint64_t seq;
    std::vector<double> x;
  };
  std::size_t capacity_;
  std::uint64_t next_seq_ = 0;
  std::map<std::uint64_t, std::string> order_;  // seq -> name
  std::unordered_map<std::string, Item> by_name_;
};

struct Partition {
  explicit Partition(std::uint32_t id, std::size_t window) : index(id), window(window) {}
  std::uint32_t index;
  std::string output;  // the output stream's name, built once: a prediction per sample is published to it
  std::unordered_map<std::string, KeySlot> keys;
  std::list<std::string> lru;                          // front: most recently used
  std::unordered_map<std::string, EvictedKey> evicted;  // key -> record not yet checkpointed
  LabelWindow window;
  bool window_dirty = false;
  EntryId committed;                // "__last" of the latest checkpoint: the window holds entries up to it
  EntryId last;                     // last entry processed (the highest id seen)
  bool replaying = true;            // reading this consumer's pending entries first
  bool lost = false;                // a fenced read found the lease gone: drop unsaved
  std::string cursor = "0";         // replay position
  std::vector<std::string> unacked; // entries read and not yet acknowledged, in id order
  std::chrono::steady_clock::time_point last_commit, last_renew;
};

}  // namespace irithyll::serve::detail
