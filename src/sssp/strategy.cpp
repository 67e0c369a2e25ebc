// Strategy, load-balance and vertex-order names: the one mapping between
// sssp::Strategy / LoadBalance / VertexOrdering and the strings users type
// and reports print.
#include <stdexcept>
#include <string>
#include <vector>

#include "sssp/solver.hpp"

namespace sssp {

const char* to_string(Strategy s) {
  switch (s) {
    case Strategy::NearFar: return "near-far";
    case Strategy::BucketSort: return "bucket-sort";
    case Strategy::BucketMultisplit: return "bucket-multisplit";
    case Strategy::BellmanFord: return "bellman-ford";
  }
  return "unknown";
}

std::vector<Strategy> all_strategies() {
  return {Strategy::NearFar, Strategy::BucketSort, Strategy::BucketMultisplit, Strategy::BellmanFord};
}

Strategy parse_strategy(const std::string& name) {
  for (Strategy s : all_strategies())
    if (name == to_string(s)) return s;
  throw std::invalid_argument("unknown strategy '" + name +
                              "' (expected near-far, bucket-sort, bucket-multisplit or bellman-ford)");
}

const char* to_string(LoadBalance b) {
  switch (b) {
    case LoadBalance::Auto: return "auto";
    case LoadBalance::ThreeStage: return "three-stage";
    case LoadBalance::Binned: return "binned";
    case LoadBalance::MergePath: return "merge-path";
  }
  return "unknown";
}

LoadBalance parse_load_balance(const std::string& name) {
  for (LoadBalance b : {LoadBalance::Auto, LoadBalance::ThreeStage, LoadBalance::Binned, LoadBalance::MergePath})
    if (name == to_string(b)) return b;
  throw std::invalid_argument("unknown load balance '" + name + "' (expected auto, three-stage, binned or merge-path)");
}

const char* to_string(VertexOrdering o) {
  switch (o) {
    case VertexOrdering::Auto: return "auto";
    case VertexOrdering::Input: return "input";
    case VertexOrdering::Degree: return "degree";
    case VertexOrdering::Rcm: return "rcm";
  }
  return "unknown";
}

VertexOrdering parse_vertex_ordering(const std::string& name) {
  for (VertexOrdering o : {VertexOrdering::Auto, VertexOrdering::Input, VertexOrdering::Degree, VertexOrdering::Rcm})
    if (name == to_string(o)) return o;
  throw std::invalid_argument("unknown vertex order '" + name + "' (expected auto, input, degree or rcm)");
}

}  // namespace sssp
