// The multisplit methods (plain C++, so host-only code can name them).
#pragma once

#include <stdexcept>
#include <string>

namespace multisplit {

// Ashkiani et al., "GPU Multisplit" (PPoPP 2016): direct (DMS), warp-level
// (WMS) and block-level (BMS) multisplit, and the sort-based baseline
// (RB-sort: label, CUB radix sort on the low ceil(log2 m) bits, unpack).
enum class Method { Auto, Direct /*DMS*/, Warp /*WMS*/, Block /*BMS*/, SortBased /*RB-sort*/ };

inline const char* to_string(Method method) {
  switch (method) {
    case Method::Auto: return "auto";
    case Method::Direct: return "direct";
    case Method::Warp: return "warp";
    case Method::Block: return "block";
    case Method::SortBased: return "sort";
  }
  return "unknown";
}

// Accepts the names to_string prints, plus the paper's abbreviations
// (dms, wms, bms, rb-sort). Throws std::invalid_argument naming the value.
inline Method parse_method(const std::string& name) {
  if (name == "auto") return Method::Auto;
  if (name == "direct" || name == "dms") return Method::Direct;
  if (name == "warp" || name == "wms") return Method::Warp;
  if (name == "block" || name == "bms") return Method::Block;
  if (name == "sort" || name == "rb-sort" || name == "sort-based") return Method::SortBased;
  throw std::invalid_argument("unknown multisplit method '" + name + "' (auto, direct, warp, block, sort)");
}

}  // namespace multisplit
