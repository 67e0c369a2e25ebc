// The `sssp` command line; everything lives in the sssp_app library (app.hpp).
#include <iostream>

#include "app/app.hpp"

int main(int argc, char** argv) { return app::run_sssp(argc, argv, std::cout, std::cerr); }
