// The multisplit methods (plain C++, so host-only code can name them).
#pragma once

#include <stdexcept>
#include <string>

namespace multisplit {

// Ashkiani et al., "GPU Multisplit" (PPoPP 2016): direct (DMS), warp-level
// (WMS) and block-level (BMS) multisplit, and the sort-based baseline
// (RB-sort: label, CUB radix sort on the low ceil(log2 m) bits, unpack).
// SmallN: the whole split in one cooperative kernel launch (one tile per
// co-resident block, a grid barrier between counting and scattering), for
// small n and m <= 256 (detail/device/small_n.cuh).
enum class Method { Auto, Direct /*DMS*/, Warp /*WMS*/, Block /*BMS*/, SortBased /*RB-sort*/, SmallN };

inline const char* to_string(Method method) {
  switch (method) {
    case Method::Auto: return "auto";
    case Method::Direct: return "direct";
    case Method::Warp: return "warp";
    case Method::Block: return "block";
    case Method::SortBased: return "sort";
    case Method::SmallN: return "small-n";
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
  if (name == "small-n" || name == "smalln" || name == "small") return Method::SmallN;
  throw std::invalid_argument("unknown multisplit method '" + name + "' (auto, direct, warp, block, sort, small-n)");
}

}  // namespace multisplit
