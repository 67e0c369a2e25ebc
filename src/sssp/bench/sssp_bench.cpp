// sssp_bench: the benchmark mode of the sssp command, `sssp bench`, under
// the name scripts/bench_sssp.sh and older command lines use. Everything,
// options included, lives in src/app/bench.{hpp,cpp}.
//
//   sssp_bench --generate rmat:20:16 --generate grid:2048:2048
//              --graph ../shared/datasets/road/DE.gr --runs 5   (one line)
#include <iostream>

#include "app/bench.hpp"

int main(int argc, char** argv) { return app::run_bench(argc, argv, std::cout, std::cerr); }
